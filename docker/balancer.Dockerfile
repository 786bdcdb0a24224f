# The load balancer of the scaled setup (docker/compose.scale.yml): HAProxy from Debian's
# packages, configured at start by docker/haproxy-cfg.sh from two variables:
#
#   BACKENDS  "A=app-a:8000 B=app-b:8000 ..."  each process's shard letters and address
#   BIND      ":8000"                           where the balancer listens
#
# Routing (new rooms round-robin over accepting processes, a room's requests and socket
# to its owner) is described in docker/haproxy-cfg.sh and docs/self-hosting.md.
# BASE is any Debian image; a machine without a container registry can pass a local
# bookworm image, e.g. BASE=python:3.11-slim when one is there.
ARG BASE=debian:bookworm-slim
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
