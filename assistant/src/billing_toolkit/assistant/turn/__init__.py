"""One turn of the assistant, stage by stage.

`pipeline.py` runs the stages in this order; each may end the turn, and each records its
decision in the turn's trace:

1. `gate.py` — a conversation a person has is silence;
2. `text/language.py` — the language to answer in;
3. `understanding/complaint.py`, then `understanding/person_request.py` — a complaint or
   "quiero hablar con un asesor" goes to a person, wherever it is in the message;
4. `text/identifiers.py` — the invoice, account, ID and phone numbers in the message;
5. `intents.py` — which capability answers it (part by part); an invoice named by its month,
   its last digits or by pointing back, or a payment by its month or as the one before, is
   resolved among the subscriber's own (`invoice_choice.py`, `payment_choice.py`,
   `referents.py`);
6. `identity.py` — who is writing (from the phone; never from what the message claims),
   then the claims about someone else's records;
7. the capability call, through `ports.py`;
8. retrieval, and whether any chunk is context (`retrieval/relevance.py`);
9. the narrator (`narrator/`);
10. `guards/` — humanizer, grounding verifier, identifier guard, forbidden phrases, on the
    exact text to be sent;
11. send — or end with `notices.py` (fixed replies) or a hand-off
    (`vocabulary/escalation.py`, the words the store and the channel share).

`result.py` is what a finished turn leaves: the `TurnResult` and its trace. The turn while it
runs is `pipeline._RunningTurn`.
"""
