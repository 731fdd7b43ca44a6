"""Where the contract's documents are, for an installed package and a source checkout alike."""

from pathlib import Path

CONTRACT_DIR = Path(__file__).resolve().parent
OPENAPI_PATH = CONTRACT_DIR / "openapi.yaml"
ADMIN_OPENAPI_PATH = CONTRACT_DIR / "simulator-admin.yaml"
