"""The billing world: the dataset, its money rules and invariants, the store and its
persistence — plain Python, with no HTTP in it.

A regular package (not a namespace one) so that a built wheel contains it.
"""
