"""Intent understanding: what a subscriber's message asks for, as a measured component.

`labels` names the routes; `utterances` is the labelled Spanish/English set and its split by
template; `classifier` is the interface and the trained character n-gram model (the default);
`llm_classifier` the same interface over an OpenAI-compatible model; `keyword_classifier` the
old keyword router, kept as the baseline the benchmark compares against; `segments` splits a
message that asks several things; `report` measures a classifier on the held-out templates.
"""
