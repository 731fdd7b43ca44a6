"""Reading and writing the text of a conversation, shared by every stage.

- `folding.py`: the one folding for matching (case, accents, spaces) — keyword rules and the
  knowledge-base index alike;
- `identifiers.py`: finding invoice, account, payment, cédula/RIF, phone and plan numbers;
- `dates.py`: finding, reading and writing dates;
- `amounts.py`: the one amount reader (and the signs in front of figures);
- `money.py`: writing an API amount for a subscriber;
- `language.py`: which language to answer in;
- `masking.py`: hiding personal identifiers in logs and traces.

Nothing here knows about turns, stores or the billing API.
"""
