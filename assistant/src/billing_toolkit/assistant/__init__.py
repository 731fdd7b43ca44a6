"""The billing assistant: a WhatsApp message in; a grounded reply, silence or a hand-off out.

- `turn/`: one turn, stage by stage (its `__init__` lists the stages in order);
- `guards/`: the checks on the exact text to be sent;
- `text/`: reading and writing text (folding, identifiers, dates, amounts, language, masking);
- `retrieval/`, `knowledge/`: the knowledge base and hybrid search over it;
- `narrator/`: writing the reply around the evidence (template or model);
- `store/`: conversations, escalations and the channel's message log;
- `channel/`: the WhatsApp webhook service and the agents' handoff API;
- `evaluation/`: the scenario suite and the narration-fault injection;
- `runtime.py`: building the assistant from configuration;
- `cli.py`, `commands/`: `billing-assistant`.
"""
