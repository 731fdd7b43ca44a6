# One image for the project's services; docker-compose.yml picks the command per service.
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY contract ./contract
COPY webconsole ./webconsole
COPY client ./client
COPY simulator ./simulator
COPY conformance ./conformance
COPY assistant ./assistant
COPY pytest_plugin ./pytest_plugin
# Each folder is a distribution of its own; the services need the simulator, the assistant and
# the PostgreSQL driver. The SDK alone is `pip install ./contract ./client`.
RUN pip install --no-cache-dir ./contract ./webconsole ./client ./simulator ./conformance \
    './assistant[postgres]' ./pytest_plugin '.[all]'
EXPOSE 8080
# The admin token comes from the environment (`docker run -e BILLING_SIM_ADMIN_TOKEN=...`, or
# docker-compose.yml): on 0.0.0.0 without it `billing-sim serve` refuses to start rather than
# serve the public dev token.
CMD ["billing-sim", "serve", "--host", "0.0.0.0", "--port", "8080"]
