"""The QA console's words in Spanish and English, and which of them a visitor gets.

The sign-in page follows the browser's `Accept-Language`; every page has a switch and the
session remembers the choice. Messages from the API's validation (a fault rule's field
errors) are shown as the API words them — the same text QA reads in a 400 — under a heading
in the visitor's language. Bias: Spanish, the language of the operators, when nothing says
otherwise.
"""

from __future__ import annotations

from billing_toolkit.webconsole.i18n import LANGUAGES, Table, pick, wording

__all__ = ["LANGUAGES", "pick", "texts"]

_TEXTS: Table = {
    # key: (es, en)
    "title": ("Consola QA del simulador", "Simulator QA console"),
    "skip": ("Saltar al contenido", "Skip to content"),
    "signin": ("Iniciar sesión", "Sign in"),
    "signin_help": (
        "Usa el token de administración del simulador (BILLING_SIM_ADMIN_TOKEN).",
        "Use the simulator's admin token (BILLING_SIM_ADMIN_TOKEN).",
    ),
    "signout": ("Cerrar sesión", "Sign out"),
    "token": ("Token de administración", "Admin token"),
    "language": ("Idioma", "Language"),
    "switch": ("Cambiar idioma", "Switch language"),
    "bad_token": (
        "Ese no es el token de administración de este simulador.",
        "That is not this simulator's admin token.",
    ),
    "csrf": (
        "El formulario caducó o no vino de esta página. Recárgala e inténtalo de nuevo.",
        "The form expired or did not come from this page. Reload it and try again.",
    ),
    "bad_form": ("El formulario no se pudo leer.", "The form could not be read."),
    "rules": ("Reglas de fallo activas", "Active fault rules"),
    "rules_none": (
        "No hay reglas activas: todas las peticiones pasan.",
        "No active rule: every request goes through.",
    ),
    "id": ("Id", "Id"),
    "kind": ("Tipo de fallo", "Fault kind"),
    "target": ("Operación o ruta", "Operation or path"),
    "tenant": ("Operador", "Tenant"),
    "remaining": ("Restantes", "Remaining"),
    "unlimited": ("sin límite", "unlimited"),
    "step": ("paso {n} de {m}", "step {n} of {m}"),
    "window": ("Ventana (s)", "Window (s)"),
    "always": ("siempre", "always"),
    "source": ("Origen", "Source"),
    "actions": ("Acciones", "Actions"),
    "remove": ("Quitar", "Remove"),
    "clear_rules": ("Quitar todas las reglas", "Remove every rule"),
    "add_rule": ("Añadir una regla", "Add a rule"),
    "operation": ("Operación", "Operation"),
    "any_operation": ("cualquiera (*)", "any (*)"),
    "tenant_any": ("Operador (vacío: todos)", "Tenant (empty: all)"),
    "times": ("Veces (vacío: sin límite)", "Times (empty: unlimited)"),
    "probability": ("Probabilidad (0–1, vacío: siempre)", "Probability (0–1, empty: always)"),
    "after_s": ("Empieza tras (s)", "Starts after (s)"),
    "duration_s": ("Dura (s)", "Lasts (s)"),
    "extra": (
        "Otros campos (YAML, p. ej. retry_after_s: 2)",
        "Other fields (YAML, e.g. retry_after_s: 2)",
    ),
    "add": ("Añadir regla", "Add rule"),
    "rule_refused": ("La regla no se añadió:", "The rule was not added:"),
    "rule_added": ("Regla añadida.", "Rule added."),
    "scenarios": ("Escenarios", "Scenarios"),
    "scenarios_none": ("Ningún escenario con nombre está cargado.", "No named scenario is loaded."),
    "rules_count": ("Reglas", "Rules"),
    "unload": ("Descargar", "Unload"),
    "scenario_yaml": ("Archivo de escenario (YAML)", "Scenario file (YAML)"),
    "scenario_file": ("…o elige un archivo", "…or pick a file"),
    "replace": ("Reemplazar si ya está cargado", "Replace it if already loaded"),
    "load": ("Cargar escenario", "Load scenario"),
    "scenario_refused": ("El escenario no se cargó:", "The scenario was not loaded:"),
    "scenario_loaded": ("Escenario cargado.", "Scenario loaded."),
    "clock": ("Reloj de negocio", "Business clock"),
    "now": ("Ahora", "Now"),
    "days": ("Días", "Days"),
    "hours": ("Horas", "Hours"),
    "minutes": ("Minutos", "Minutes"),
    "advance": ("Adelantar el reloj", "Advance the clock"),
    "clock_refused": ("El reloj no se movió:", "The clock did not move:"),
    "clock_moved": (
        "Reloj adelantado; las reglas de facturación de los días cruzados se aplicaron.",
        "Clock moved; the billing rules of the days crossed were applied.",
    ),
    "reset": ("Reiniciar", "Reset"),
    "reset_help": (
        "Vuelve al conjunto de datos inicial, sin reglas de fallo ni peticiones registradas.",
        "Back to the fresh dataset, with no fault rule and an empty request journal.",
    ),
    "reset_button": ("Reiniciar el simulador", "Reset the simulator"),
    "reset_done": ("Simulador reiniciado.", "Simulator reset."),
    "requests": ("Peticiones recibidas", "Requests received"),
    "requests_live": (
        "Las más recientes primero; la lista se actualiza sola.",
        "Newest first; the list updates by itself.",
    ),
    "requests_none": ("Aún no llegó ninguna petición.", "No request has arrived yet."),
    "journal_off": (
        "El registro de peticiones está apagado (--journal-size 0).",
        "The request journal is off (--journal-size 0).",
    ),
    "time": ("Hora", "Time"),
    "method": ("Método", "Method"),
    "path": ("Ruta", "Path"),
    "status": ("Estado", "Status"),
    "faults": ("Fallos aplicados", "Faults applied"),
    "no_fault": ("ninguno", "none"),
    "duration": ("ms", "ms"),
    "request_id": ("Id de petición", "Request id"),
    "clear_requests": ("Vaciar el registro", "Empty the journal"),
    "not_found": ("No existe esa página.", "There is no such page."),
    "faults_page": ("Fallos y reloj", "Faults and clock"),
    "reports": ("Reportes de pago", "Payment reports"),
    "outcomes_count": ("Resultados forzados", "Forced outcomes"),
    "any_status": ("todos", "all"),
    "reference": ("Referencia", "Reference"),
    "show": ("Mostrar", "Show"),
    "reports_help": (
        "Un reporte pendiente se verifica o rechaza al pasar el plazo de verificación.",
        "A pending report is verified or rejected once the verification delay passes.",
    ),
    "reports_shown": (
        "Los {shown} más recientes de {total}.",
        "The newest {shown} of {total}.",
    ),
    "reports_none": ("Ningún reporte coincide.", "No report matches."),
    "report_id": ("Id del reporte", "Report id"),
    "account": ("Cuenta", "Account"),
    "amount": ("Monto", "Amount"),
    "reason": ("Motivo del rechazo", "Rejection reason"),
    "payment_id": ("Id del pago", "Payment id"),
    "made_at": ("Reportado", "Reported at"),
    "report_pending_verification": ("pendiente", "pending"),
    "report_verified": ("verificado", "verified"),
    "report_rejected": ("rechazado", "rejected"),
    "forced": ("Resultados forzados por escenarios", "Outcomes forced by scenarios"),
    "forced_none": (
        "Ningún escenario fuerza un resultado para este operador: decide el estado de cuenta.",
        "No scenario forces an outcome for this tenant: the bank statement decides.",
    ),
    "bad_filter": (
        "Ese operador o estado no existe.",
        "There is no such tenant or status.",
    ),
}

texts = wording(_TEXTS)
