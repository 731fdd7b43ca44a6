# One image for the project's services; docker-compose.yml picks the command per service.
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY contract ./contract
COPY simulator ./simulator
COPY client ./client
COPY assistant ./assistant
COPY conformance ./conformance
RUN pip install --no-cache-dir .
EXPOSE 8080
CMD ["billing-sim", "serve", "--host", "0.0.0.0", "--port", "8080"]
