"""The chrome both web consoles share: the agents' inbox (`assistant/channel/console/`) and
the QA console (`simulator/console/`).

- `headers.py`: the private-page headers on every answer (no-store, CSP, nosniff, frame deny,
  no referrer).
- `session.py`: the signed, timestamped session cookie and the HMAC CSRF token per random sid;
  each console decides what its session holds.
- `i18n.py`: which language a visitor gets (`pick`) and `wording(table)`, a console's `texts`;
  each console keeps only its own words.
- `static/console.js`: the poller that refreshes the regions marked `data-live`;
  `static_files()` serves it next to each console's own files.

It imports nothing else of the toolkit (enforced in pyproject.toml), so the simulator and the
assistant can both use it without seeing each other.
"""
