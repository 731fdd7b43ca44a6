"""Venezuelan places, street names and business names for the generated dataset.

Faker has no Venezuelan locale; names come from its Spanish provider and everything that
says "Venezuela" (states, cities, postal codes, streets, C.A. companies) comes from here.
"""

from __future__ import annotations

from typing import NamedTuple


class Place(NamedTuple):
    city: str
    state: str
    postal_code: str


FIBRANET_PLACES: tuple[Place, ...] = (
    Place("Caracas", "Distrito Capital", "1010"),
    Place("Caracas", "Miranda", "1060"),
    Place("Petare", "Miranda", "1073"),
    Place("Los Teques", "Miranda", "1201"),
    Place("Guarenas", "Miranda", "1220"),
    Place("Valencia", "Carabobo", "2001"),
    Place("Naguanagua", "Carabobo", "2005"),
    Place("Maracay", "Aragua", "2101"),
    Place("Barquisimeto", "Lara", "3001"),
    Place("Maracaibo", "Zulia", "4001"),
    Place("Mérida", "Mérida", "5101"),
    Place("San Cristóbal", "Táchira", "5001"),
    Place("Puerto La Cruz", "Anzoátegui", "6023"),
    Place("Barcelona", "Anzoátegui", "6001"),
)

LLANOLINK_PLACES: tuple[Place, ...] = (
    Place("Barinas", "Barinas", "5201"),
    Place("Socopó", "Barinas", "5214"),
    Place("San Fernando de Apure", "Apure", "7001"),
    Place("Guasdualito", "Apure", "7101"),
    Place("Calabozo", "Guárico", "2312"),
    Place("San Juan de los Morros", "Guárico", "2301"),
    Place("Valle de la Pascua", "Guárico", "2350"),
    Place("Acarigua", "Portuguesa", "3301"),
    Place("Guanare", "Portuguesa", "3350"),
    Place("San Carlos", "Cojedes", "2201"),
)

AVENUES: tuple[str, ...] = (
    "Av. Bolívar",
    "Av. Libertador",
    "Av. Francisco de Miranda",
    "Av. Universidad",
    "Av. Las Delicias",
    "Av. 5 de Julio",
    "Av. Los Próceres",
    "Av. Andrés Bello",
    "Av. Sucre",
    "Av. Páez",
    "Av. Cedeño",
    "Av. Lara",
    "Av. Intercomunal",
)
STREETS: tuple[str, ...] = (
    "Calle Miranda",
    "Calle Urdaneta",
    "Calle Comercio",
    "Calle El Carmen",
    "Calle Real",
    "Calle Ayacucho",
    "Calle Carabobo",
    "Calle Bermúdez",
    "Calle Junín",
    "Calle Sucre",
)
URBANIZATIONS: tuple[str, ...] = (
    "Urb. La Floresta",
    "Urb. El Paraíso",
    "Urb. Los Samanes",
    "Urb. Prebo",
    "Urb. La Trigaleña",
    "Urb. Santa Inés",
    "Urb. Alto Barinas",
    "Urb. Los Mangos",
    "Urb. Campo Alegre",
    "Urb. El Recreo",
)
BUILDINGS: tuple[str, ...] = (
    "Edif. Parque Cristal",
    "Res. Los Jabillos",
    "Edif. Camoruco",
    "Res. El Samán",
    "Edif. Torre Sur",
    "Res. Las Acacias",
    "Edif. Miramar",
    "Res. Araguaney",
)
BUSINESS_PATTERNS: tuple[str, ...] = (
    "Inversiones {surname} {surname2}, C.A.",
    "Comercial {surname}, C.A.",
    "Distribuidora {surname} & Asociados, C.A.",
    "Panadería {surname}, C.A.",
    "Farmacia Santa {saint}, C.A.",
    "Agropecuaria {surname}, C.A.",
    "Ferretería El {trade}, C.A.",
    "Servicios Técnicos {surname}, S.R.L.",
)
SAINTS: tuple[str, ...] = ("Rosa", "Teresa", "Bárbara", "Lucía", "Inés", "Ana")
TRADES: tuple[str, ...] = ("Tornillo", "Constructor", "Llanero", "Progreso", "Samán")
MOBILE_PREFIXES: tuple[str, ...] = ("412", "414", "416", "424", "426")
EMAIL_DOMAINS: tuple[str, ...] = ("example.com", "example.net", "example.org")
