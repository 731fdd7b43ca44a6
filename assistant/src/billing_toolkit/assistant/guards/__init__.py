"""What a reply goes through between the narrator and the subscriber, in this order.

1. `humanizer.py` shapes it for WhatsApp (only removes: Markdown, blank lines, an overlong
   tail);
2. `grounding.py` checks every figure, date and citation against the turn's evidence, and
   (`report_claims.py`) every payment report status, rejection reason and rate publication;
3. `foreign_identifiers.py` checks every identifier is one this subscriber may be told;
4. `forbidden_phrases.py` stops promises only a person may make.

Each check reads the exact text that would be sent; a reply that fails one escalates.
"""
