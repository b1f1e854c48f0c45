# Weir on the official Open Liberty image.
#
# The image is assembled from the build's output, so build first:
#   ./mvnw package
#   docker build -t weir .
# (./mvnw package writes target/weir.war and copies the PostgreSQL driver to
# target/liberty/wlp/usr/servers/weir/jdbc/.)
FROM icr.io/appcafe/open-liberty:kernel-slim-java17-openj9-ubi-minimal

# Server configuration first (server.xml, bootstrap.properties, jvm.options), so that features.sh can install
# the features server.xml lists. These layers change rarely and stay cached.
COPY --chown=1001:0 server-config/ /config/
RUN features.sh

# The PostgreSQL driver, for server.xml's "postgresql" library (${server.config.dir}/jdbc), then the application.
COPY --chown=1001:0 target/liberty/wlp/usr/servers/weir/jdbc/ /config/jdbc/
COPY --chown=1001:0 target/weir.war /config/apps/

RUN configure.sh

# Everything that differs per environment comes from environment variables at run time; the image holds no
# password. Give at least the database:
#   WEIR_DB_URL        JDBC URL, e.g. jdbc:postgresql://db:5432/app. Unset: an embedded PostgreSQL starts inside
#                      the container, for trying Weir out only (its data goes with the container).
#   WEIR_DB_USER       database user (default postgres); it must be allowed to create the schema "weir"
#   WEIR_DB_PASSWORD   database password (default empty); pass it from a secret, not on a command line
#   WEIR_DB_POOL_SIZE  most connections of the jdbc/weir pool (default 40)
#   WEIR_ENGINE_POOL_SIZE  most connections of the jdbc/weir-engine pool (default 20)
#   WEIR_EXECUTOR_CORE_THREADS  threads Liberty's default executor keeps for requests and jobs (default 140: one
#                               queue of 100 workers and 40 for requests; start-up warns when the queues need more)
#   WEIR_DB_OPTIONS    PostgreSQL settings every Weir session starts with (default -c jit=off; keep it when
#                      adding others, docs/adr/0033-no-jit.md)
#   HTTP_PORT, HTTPS_PORT   9080 and 9443 unless set (change EXPOSE and the port mapping to match)
#   WEIR_QUEUES, WEIR_QUEUE_<NAME>_MAX_WORKERS, ...   Weir's settings, see docs/configuration.md
#   WEIR_ADMIN_PASSWORD, WEIR_SUBMITTER_PASSWORD, WEIR_VIEWER_PASSWORD   the API's users (README, "Users and
#                      roles"); a user whose password is unset does not exist, so with none set every /api call is
#                      refused. Pass them from a secret, and put TLS in front of the port.
EXPOSE 9080 9443
