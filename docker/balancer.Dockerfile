# The load balancer of the scaled setup (docker/compose.scale.yml): HAProxy from Debian's
# packages, configured at start by docker/haproxy-cfg.sh from two variables:
#
#   BACKENDS  "A=app-a:8000 B=app-b:8000 ..."  each process's shard letters and address
#   BIND      ":8000"                           where the balancer listens
#
# Routing (new rooms round-robin over accepting processes, a room's requests and socket
# to its owner) is described in docker/haproxy-cfg.sh and docs/self-hosting.md.
# BASE is any Debian image. The default is the app's own base image (docker/Dockerfile),
# Debian bookworm with Python, so that a machine that can build the app can build this
# without pulling anything more; BALANCER_BASE in compose.scale.yml's environment (or
# `--build-arg BASE=debian:bookworm-slim`) picks another.
ARG BASE=python:3.11-slim
FROM ${BASE}

RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends haproxy \
 && rm -rf /var/lib/apt/lists/*

COPY docker/haproxy-cfg.sh /usr/local/bin/haproxy-cfg
RUN chmod 755 /usr/local/bin/haproxy-cfg

# Docker's DNS: a restarted app container may come back with a new address.
ENV BIND=:8000 \
    BACKENDS="A=app-a:8000 B=app-b:8000" \
    HAPROXY_LOG=1 \
    HAPROXY_RESOLVER=127.0.0.11:53

USER haproxy
EXPOSE 8000
STOPSIGNAL SIGUSR1
CMD ["sh", "-c", "haproxy-cfg \"$BIND\" $BACKENDS > /tmp/haproxy.cfg && exec haproxy -db -f /tmp/haproxy.cfg"]
