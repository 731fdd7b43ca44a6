"""The words every stage of the assistant shares, and nothing that acts on them.

`intents.Intent` is what a message asks (routing decides it, the narrators and the evaluation
speak it); `escalation` is why and how a conversation goes to a person (the turn builds one,
the store keeps it, the channel and the evaluation read it). They sit at the bottom of the
layering (pyproject.toml's `[tool.importlinter]`) so no stage has to import another stage to
name a result: a word that needs more than the standard library does not belong here.
"""
