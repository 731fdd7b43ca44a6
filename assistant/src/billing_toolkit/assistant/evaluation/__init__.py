"""The assistant's scenario suite: conversations against the simulator, judged against the
billing API's own records, plus a narration-fault injection run.

`billing-assistant eval` is the command; `scenarios.yaml` the data; `runner.SuiteRunner` runs
it; `truth` defines a verified-wrong answer; `report` turns a run into figures.
"""
