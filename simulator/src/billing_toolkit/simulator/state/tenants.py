"""The two operators of the simulated world and their plan catalogues (shared domain facts)."""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass
from decimal import Decimal

from billing_toolkit.simulator.state.models import Plan, Tenant
from billing_toolkit.simulator.state.venezuela import FIBRANET_PLACES, LLANOLINK_PLACES, Place


@dataclass(frozen=True, slots=True)
class TenantSpec:
    tenant_id: str
    name: str
    account_prefix: str
    first_invoice_sequence: int
    first_payment_sequence: int
    places: tuple[Place, ...]
    ves_share: float
    """Share of customers billed in bolívares."""
    plans: tuple[Plan, ...]


def _plan(plan_id: str, name: str, down: int, up: int, price: str, currency: str) -> Plan:
    return Plan(plan_id, name, down, up, Decimal(price), currency)


TENANT_SPECS: tuple[TenantSpec, ...] = (
    TenantSpec(
        tenant_id="fibranet",
        name="FibraNet Venezuela, C.A.",
        account_prefix="10",
        first_invoice_sequence=4200,
        first_payment_sequence=10000,
        places=FIBRANET_PLACES,
        ves_share=0.25,
        plans=(
            _plan("PLN-FIBRA-50", "Fibra 50", 50, 25, "20.00", "USD"),
            _plan("PLN-FIBRA-100", "Fibra 100", 100, 50, "28.00", "USD"),
            _plan("PLN-FIBRA-300", "Fibra 300", 300, 150, "40.00", "USD"),
            _plan("PLN-FIBRA-600", "Fibra 600", 600, 300, "55.00", "USD"),
            _plan("PLN-HOGAR-30", "Hogar 30", 30, 10, "1450.00", "VES"),
            _plan("PLN-HOGAR-60", "Hogar 60", 60, 20, "2600.00", "VES"),
        ),
    ),
    TenantSpec(
        tenant_id="llanolink",
        name="LlanoLink Telecomunicaciones",
        account_prefix="20",
        first_invoice_sequence=501200,
        first_payment_sequence=5000000000,
        places=LLANOLINK_PLACES,
        ves_share=0.4,
        plans=(
            _plan("PLN-LLANO-20", "Llano 20", 20, 5, "18.00", "USD"),
            _plan("PLN-LLANO-50", "Llano 50", 50, 15, "25.00", "USD"),
            _plan("PLN-LLANO-100", "Llano 100", 100, 30, "35.00", "USD"),
            _plan("PLN-RURAL-10", "Rural 10", 10, 2, "980.00", "VES"),
            _plan("PLN-RURAL-25", "Rural 25", 25, 5, "1750.00", "VES"),
        ),
    ),
)


def api_key(seed: int, tenant_id: str) -> str:
    """A per-seed test key: stable for a seed, different across seeds and tenants."""
    digest = hashlib.sha256(f"billing-sim:{seed}:{tenant_id}".encode()).hexdigest()
    return f"sk_sim_{tenant_id}_{digest[:24]}"


def build_tenant(spec: TenantSpec, seed: int) -> Tenant:
    return Tenant(
        tenant_id=spec.tenant_id,
        name=spec.name,
        api_key=api_key(seed, spec.tenant_id),
        account_prefix=spec.account_prefix,
        plans=sorted((dataclasses.replace(p) for p in spec.plans), key=lambda p: p.plan_id),
    )
