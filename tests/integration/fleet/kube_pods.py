#!/usr/bin/env python3
"""Turn deploy/kubernetes's workloads into what `podman kube play` (4.3) runs.

podman 4.3's kube play runs Pods, Deployments, PersistentVolumeClaims and ConfigMaps; it does
not know Jobs, DaemonSets, StatefulSets or Services. So this test plays the pod templates of
the manifests, as the controllers of a cluster would stamp them out:

  Job            -> one Pod (the template), named after the Job
  StatefulSet    -> replicas Pods NAME-0..N-1 and, per pod, one PersistentVolumeClaim
                    CLAIM-NAME-i from volumeClaimTemplates (as the StatefulSet controller names them)
  DaemonSet      -> one Pod per node of this one-node test, NAME-NODE
  PersistentVolumeClaim -> itself

Each change below stands for a thing a cluster provides and podman 4.3 does not; the test's
log and docs/fleet.md ("Testing it here") list them:
  - the Service's name: hostAliases maps iomark-controller to the controller pod's address;
  - Secret volumes: a hostPath directory holding the same key file (mode 0440, group 10066,
    as the kubelet writes it for defaultMode 0440 and fsGroup 10066);
  - fieldRef spec.nodeName and metadata.name: their values, and $(VAR) in args expanded;
  - fsGroup on claims: the podman volume is made owned by 10066 (volume.podman.io/uid, gid);
  - the image: the one just built;
  - the controller's --wait-managers and the series' length: set by the test (a short series);
  - init containers are kept once finished (podman's "always" type), as a kubelet keeps them.
Everything else -- commands, arguments, users, capabilities, read-only root file systems,
mounts -- is the manifests' own.

usage: kube_pods.py MANIFEST_DIR OUT_DIR --image IMAGE --key-dir DIR --controller-ip IP
       --node NAME --hostpath-root DIR [--controller-arg --name=value ...]
writes OUT_DIR/controller.yaml (the Job's pod and its claims) and OUT_DIR/agents.yaml.
"""
import argparse
import copy
import re
import pathlib
import sys

import yaml


def podify(name, template, args):
    spec = copy.deepcopy(template["spec"])
    labels = dict(template.get("metadata", {}).get("labels", {}))
    spec["hostAliases"] = [{"ip": args.controller_ip, "hostnames": ["iomark-controller"]}]
    for container in spec.get("initContainers", []) + spec.get("containers", []):
        container["image"] = args.image
        container["imagePullPolicy"] = "Never"
        for env in container.get("env", []):
            ref = env.get("valueFrom", {}).get("fieldRef", {}).get("fieldPath")
            if ref == "spec.nodeName":
                del env["valueFrom"]
                env["value"] = args.node
            elif ref == "metadata.name":
                del env["valueFrom"]
                env["value"] = name
        # The kubelet expands $(NAME) in command and args from the container's env; podman 4.3 does not.
        values = {env["name"]: env["value"] for env in container.get("env", []) if "value" in env}
        for key in ("command", "args"):
            if key in container:
                container[key] = [re.sub(r"\$\((\w+)\)", lambda m: values.get(m.group(1), m.group(0)), a)
                                  for a in container[key]]
    for volume in spec.get("volumes", []):
        if "secret" in volume:
            del volume["secret"]
            volume["hostPath"] = {"path": args.key_dir, "type": "Directory"}
        elif "hostPath" in volume:
            path = pathlib.Path(args.hostpath_root) / name / volume["name"]
            path.mkdir(parents=True, exist_ok=True)
            volume["hostPath"] = {"path": str(path), "type": "Directory"}
    metadata = {"name": name, "labels": labels}
    # podman 4.3 removes a finished init container ("once", its default) racing its own exit:
    # "failed to remove once init container ... as it is running" (podman issue 18477). As a
    # kubelet does, keep it instead.
    if spec.get("initContainers"):
        annotations = {"io.podman.annotations.init.container.type": "always"}
        for init in spec["initContainers"]:
            annotations[f"io.podman.annotations.init.container.type/{init['name']}"] = "always"
        metadata["annotations"] = annotations
    return {"apiVersion": "v1", "kind": "Pod", "metadata": metadata, "spec": spec}


def claim(name, spec, labels=None):
    return {
        "apiVersion": "v1",
        "kind": "PersistentVolumeClaim",
        "metadata": {
            "name": name,
            "labels": labels or {},
            "annotations": {"volume.podman.io/uid": "10066", "volume.podman.io/gid": "10066"},
        },
        "spec": spec,
    }


def override(container, settings):
    """--name=value settings replace the argument of that name, or are added."""
    out = list(container.get("args", []))
    for setting in settings:
        key = setting.split("=", 1)[0] + "="
        out = [a for a in out if not a.startswith(key)]
        out.append(setting)
    container["args"] = out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("manifests")
    parser.add_argument("out")
    parser.add_argument("--image", required=True)
    parser.add_argument("--key-dir", required=True)
    parser.add_argument("--controller-ip", required=True)
    parser.add_argument("--node", required=True)
    parser.add_argument("--hostpath-root", required=True)
    parser.add_argument("--controller-arg", action="append", default=[])
    args = parser.parse_args()

    controller, agents = [], []
    for path in sorted(pathlib.Path(args.manifests).glob("*.yaml")):
        if path.name in ("kustomization.yaml", "results-reader.yaml", "secret.example.yaml"):
            continue
        for doc in yaml.safe_load_all(path.read_text()):
            if not doc:
                continue
            kind, name = doc["kind"], doc["metadata"]["name"]
            if kind == "Job":
                pod = podify(name, doc["spec"]["template"], args)
                override(pod["spec"]["containers"][0], args.controller_arg)
                controller.append(pod)
            elif kind == "PersistentVolumeClaim":
                controller.insert(0, claim(name, doc["spec"], doc["metadata"].get("labels")))
            elif kind == "StatefulSet":
                for i in range(doc["spec"].get("replicas", 1)):
                    pod_name = f"{name}-{i}"
                    pod = podify(pod_name, doc["spec"]["template"], args)
                    for template in doc["spec"].get("volumeClaimTemplates", []):
                        claim_name = f"{template['metadata']['name']}-{pod_name}"
                        agents.append(claim(claim_name, template["spec"], template["metadata"].get("labels")))
                        pod["spec"].setdefault("volumes", []).append(
                            {"name": template["metadata"]["name"],
                             "persistentVolumeClaim": {"claimName": claim_name}})
                    agents.append(pod)
            elif kind == "DaemonSet":
                agents.append(podify(f"{name}-{args.node}", doc["spec"]["template"], args))
            elif kind == "Service":
                continue  # see hostAliases above
            else:
                sys.exit(f"kube_pods.py: {path.name}: {kind} {name} is not handled")

    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "controller.yaml").write_text(yaml.safe_dump_all(controller, sort_keys=False))
    (out / "agents.yaml").write_text(yaml.safe_dump_all(agents, sort_keys=False))
    pods = [d["metadata"]["name"] for d in agents if d["kind"] == "Pod"]
    print(" ".join(pods))


if __name__ == "__main__":
    main()
