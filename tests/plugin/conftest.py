"""The plugin's own tests run small user suites with `pytester`."""

pytest_plugins = ["pytester"]
