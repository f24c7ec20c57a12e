#!/usr/bin/env python3
"""Checks the rendered Kubernetes manifests for what the deployment promises.

Schema validity is kubernetes-validate's job; this checks the promises that a schema cannot
see: probes on the real gRPC port, a grace period longer than the drain, the headless Service,
selectors that match, and so on. It also writes what the container test needs to run the image
the way the Deployment runs it: the ConfigMap as an env file, and the timing numbers.

Usage: manifests.py RENDERED.yaml ENV_FILE_OUT VARS_OUT
"""

import re
import sys

import yaml

failures = []


def check(condition, what):
    if condition:
        print(f"ok: {what}")
    else:
        print(f"FAIL: {what}")
        failures.append(what)


def seconds(text):
    """Reads the server's duration syntax: 500ms, 30s, 5m, 1h or bare seconds."""
    match = re.fullmatch(r"(\d+)(ms|s|m|h)?", text.strip())
    if not match:
        raise ValueError(f"{text!r} is not a duration like 30s")
    value, unit = int(match.group(1)), match.group(2) or "s"
    return value * {"ms": 0.001, "s": 1, "m": 60, "h": 3600}[unit]


def quantity(text):
    """Reads a Kubernetes memory quantity (768Mi, 1Gi, 500M, bytes) as bytes."""
    match = re.fullmatch(r"(\d+)(Ki|Mi|Gi|k|M|G)?", str(text).strip())
    if not match:
        raise ValueError(f"{text!r} is not a memory quantity like 768Mi")
    factor = {None: 1, "Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30, "k": 10**3, "M": 10**6,
              "G": 10**9}[match.group(2)]
    return int(match.group(1)) * factor


def main():
    rendered, env_out, vars_out = sys.argv[1:4]
    with open(rendered, encoding="utf-8") as f:
        docs = [d for d in yaml.safe_load_all(f) if d]
    by_kind = {}
    for doc in docs:
        by_kind.setdefault(doc["kind"], []).append(doc)

    deployments = by_kind.get("Deployment", [])
    check(len(deployments) == 1, "exactly one Deployment")
    deploy = deployments[0]
    spec = deploy["spec"]
    pod = spec["template"]["spec"]
    labels = spec["template"]["metadata"]["labels"]
    check(spec.get("replicas", 1) >= 2, f"several replicas ({spec.get('replicas')})")
    check(
        all(labels.get(k) == v for k, v in spec["selector"]["matchLabels"].items()),
        "Deployment selector matches its pod labels",
    )
    check(len(pod["containers"]) == 1, "one container")
    container = pod["containers"][0]
    ports = {p["name"]: p["containerPort"] for p in container.get("ports", [])}
    check("grpc" in ports and "metrics" in ports, f"named ports grpc and metrics ({ports})")
    grpc_port = ports.get("grpc")

    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        p = container.get(probe, {})
        check(
            p.get("grpc", {}).get("port") == grpc_port,
            f"{probe} is a native grpc probe on the gRPC port {grpc_port}",
        )
    startup = container.get("startupProbe", {})
    startup_budget = startup.get("initialDelaySeconds", 0) + startup.get(
        "periodSeconds", 10
    ) * startup.get("failureThreshold", 3)
    resources = container.get("resources", {})
    for side in ("requests", "limits"):
        got = resources.get(side, {})
        check("cpu" in got and "memory" in got, f"CPU and memory {side} ({got})")
    memory_request = quantity(resources.get("requests", {}).get("memory", 0))
    memory_limit = quantity(resources.get("limits", {}).get("memory", 0))
    check(memory_limit >= memory_request, "memory limit >= request")

    sc = container.get("securityContext", {})
    check(sc.get("readOnlyRootFilesystem") is True, "read-only root filesystem")
    check(sc.get("allowPrivilegeEscalation") is False, "no privilege escalation")
    check("ALL" in sc.get("capabilities", {}).get("drop", []), "all capabilities dropped")
    psc = pod.get("securityContext", {})
    check(psc.get("runAsNonRoot") is True, "runAsNonRoot")
    check(psc.get("runAsUser", 0) != 0, f"non-root uid {psc.get('runAsUser')}")

    annotations = spec["template"]["metadata"].get("annotations", {})
    check(annotations.get("prometheus.io/scrape") == "true", "Prometheus scrape annotation")
    check(
        annotations.get("prometheus.io/port") == str(ports.get("metrics")),
        "Prometheus port annotation is the metrics port",
    )

    # The ConfigMap the container reads its settings from.
    refs = [e["configMapRef"]["name"] for e in container.get("envFrom", []) if "configMapRef" in e]
    maps = {m["metadata"]["name"]: m for m in by_kind.get("ConfigMap", [])}
    check(len(refs) == 1 and refs[0] in maps, f"envFrom names a rendered ConfigMap ({refs})")
    settings = maps[refs[0]]["data"] if refs and refs[0] in maps else {}
    for key in ("SOLVER_LISTEN", "SOLVER_METRICS_LISTEN", "SOLVER_MAX_CONNECTION_AGE",
                "SOLVER_GRACE_PERIOD"):
        check(key in settings, f"ConfigMap sets {key}")
    check(
        settings.get("SOLVER_LISTEN", "").endswith(f":{grpc_port}"),
        "SOLVER_LISTEN is on the gRPC container port",
    )
    check(
        settings.get("SOLVER_METRICS_LISTEN", "").endswith(f":{ports.get('metrics')}"),
        "SOLVER_METRICS_LISTEN is on the metrics container port",
    )

    # Termination: preStop sleep, then SIGTERM and the server's drain, all inside the grace period.
    grace = pod.get("terminationGracePeriodSeconds", 30)
    pre_stop = container.get("lifecycle", {}).get("preStop", {}).get("sleep", {}).get("seconds", 0)
    drain = seconds(settings.get("SOLVER_GRACE_PERIOD", "10s"))
    check(
        grace > pre_stop + drain,
        f"terminationGracePeriodSeconds {grace} > preStop {pre_stop} + drain {drain:g}",
    )

    services = {s["metadata"]["name"]: s["spec"] for s in by_kind.get("Service", [])}
    headless = [n for n, s in services.items() if s.get("clusterIP") == "None"]
    cluster = [n for n, s in services.items() if s.get("clusterIP") != "None"]
    check(len(headless) == 1 and len(cluster) == 1, f"a ClusterIP {cluster} and a headless {headless} Service")
    for name, svc in services.items():
        check(
            all(labels.get(k) == v for k, v in svc["selector"].items()),
            f"Service {name} selects the pods",
        )
        targets = {p["name"]: p.get("targetPort") for p in svc["ports"]}
        check(targets.get("grpc") in ("grpc", grpc_port), f"Service {name} exposes grpc")

    hpas = by_kind.get("HorizontalPodAutoscaler", [])
    check(len(hpas) == 1, "one HorizontalPodAutoscaler")
    hpa = hpas[0]["spec"]
    check(hpa["scaleTargetRef"]["name"] == deploy["metadata"]["name"], "HPA targets the Deployment")
    check(
        any(m.get("resource", {}).get("name") == "cpu" for m in hpa.get("metrics", [])),
        "HPA scales on CPU",
    )
    check(hpa.get("minReplicas", 1) >= 2, "HPA keeps several replicas")

    pdbs = by_kind.get("PodDisruptionBudget", [])
    check(len(pdbs) == 1, "one PodDisruptionBudget")
    check(
        all(labels.get(k) == v for k, v in pdbs[0]["spec"]["selector"]["matchLabels"].items()),
        "PDB selects the pods",
    )

    with open(env_out, "w", encoding="utf-8") as f:
        for key, value in settings.items():
            f.write(f"{key}={value}\n")
    with open(vars_out, "w", encoding="utf-8") as f:
        f.write(f"K8S_GRACE={int(grace)}\n")
        f.write(f"K8S_PRESTOP={int(pre_stop)}\n")
        f.write(f"SERVER_DRAIN={int(drain + 0.999)}\n")
        f.write(f"STARTUP_BUDGET={int(startup_budget)}\n")
        f.write(f"GRPC_PORT={int(grpc_port)}\n")
        f.write(f"METRICS_PORT={int(ports.get('metrics'))}\n")
        f.write(f"K8S_MEMORY_REQUEST={memory_request}\n")
        f.write(f"K8S_MEMORY_LIMIT={memory_limit}\n")

    if failures:
        print(f"{len(failures)} manifest check(s) failed", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
