"""The admin API (`/_sim`, `contract/simulator-admin.yaml`): thin wrappers over `SimulatorControl`."""
