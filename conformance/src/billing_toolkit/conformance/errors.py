"""The one error the kit raises when it cannot run at all (bad input, unreachable API).

The CLI prints its message on one line and exits non-zero; a check that *ran* and found a
defect is never an exception, it is a failed outcome.
"""


class KitError(Exception):
    """The run cannot start or go on; the message says what to change."""
