// The check of a Kubeflow PyTorchJob (kubeflow.org/v1). Kubeflow's
// training-operator CRD is not among the data this check can read (not in
// ../shared/data/kubernetes/, and no npm package ships it), so its envelope is
// checked against the schema below, written by hand from the field names of
// Kubeflow's v1 API (PyTorchJobSpec, ReplicaSpec, RunPolicy), unknown fields
// refused; each replica's pod template is checked as the core
// PodTemplateSpec it is, strictly (checkCore from validate.mjs).
const kReplicaSpec = {
  type: "object",
  additionalProperties: false,
  required: ["template"],
  properties: {
    replicas: { type: "integer", minimum: 0 },
    restartPolicy: { enum: ["Always", "OnFailure", "Never", "ExitCode"] },
    template: { type: "object" },  // checked as a core PodTemplateSpec
  },
};

export const kPyTorchJobSchema = {
  type: "object",
  additionalProperties: false,
  required: ["apiVersion", "kind", "metadata", "spec"],
  properties: {
    apiVersion: { const: "kubeflow.org/v1" },
    kind: { const: "PyTorchJob" },
    metadata: { type: "object" },  // checked as a core ObjectMeta
    spec: {
      type: "object",
      additionalProperties: false,
      required: ["pytorchReplicaSpecs"],
      properties: {
        pytorchReplicaSpecs: {
          type: "object",
          additionalProperties: false,
          minProperties: 1,
          properties: { Master: kReplicaSpec, Worker: kReplicaSpec },
        },
        runPolicy: {
          type: "object",
          additionalProperties: false,
          properties: {
            activeDeadlineSeconds: { type: "integer", minimum: 0 },
            backoffLimit: { type: "integer", minimum: 0 },
            cleanPodPolicy: { enum: ["All", "Running", "None"] },
            managedBy: { type: "string" },
            schedulingPolicy: { type: "object" },
            suspend: { type: "boolean" },
            ttlSecondsAfterFinished: { type: "integer", minimum: 0 },
          },
        },
        elasticPolicy: { type: "object" },
        nprocPerNode: { type: "string" },
      },
    },
  },
};

// The parts of a PyTorchJob to check as core objects: [upstream type, value, path].
export function pytorchCoreParts(doc) {
  const parts = [["V1ObjectMeta", doc.metadata, "/metadata"]];
  for (const [replica, spec] of Object.entries(doc.spec?.pytorchReplicaSpecs ?? {})) {
    parts.push(["V1PodTemplateSpec", spec?.template, `/spec/pytorchReplicaSpecs/${replica}/template`]);
  }
  return parts;
}
