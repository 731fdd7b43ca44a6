# One image for the project's services; docker-compose.yml picks the command per service.
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml setup.py README.md ./
COPY contract ./contract
COPY simulator ./simulator
COPY client ./client
COPY assistant ./assistant
COPY conformance ./conformance
COPY pytest_plugin ./pytest_plugin
COPY webconsole ./webconsole
# The services need the simulator, the assistant and the PostgreSQL driver; the SDK alone is
# `pip install billing-toolkit`.
RUN pip install --no-cache-dir '.[all]'
EXPOSE 8080
CMD ["billing-sim", "serve", "--host", "0.0.0.0", "--port", "8080"]
