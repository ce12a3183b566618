package deploy

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/gridgym/gridgym/store"
)

// TestManifests is the schema check of the manifests, in place of
// `kubectl apply --dry-run=client` (no kubectl or cluster here, and without a
// cluster kubectl validates little): every document is decoded strictly into
// the Kubernetes API types (an unknown or misspelt field fails), and the
// fields the deployment relies on are checked.
func TestManifests(t *testing.T) {
	files, _ := filepath.Glob("*.yaml")
	if len(files) < 3 {
		t.Fatalf("manifests: %v", files)
	}
	kinds := map[string]int{}
	var job *batchv1.Job
	var learner *appsv1.Deployment
	var secret *corev1.Secret
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, doc := range bytes.Split(b, []byte("\n---")) {
			if len(bytes.TrimSpace(doc)) == 0 {
				continue
			}
			var head struct{ APIVersion, Kind string }
			if err := yaml.Unmarshal(doc, &head); err != nil {
				t.Fatalf("%s #%d: %v", f, i, err)
			}
			var obj any
			switch head.APIVersion + " " + head.Kind {
			case "batch/v1 Job":
				job = new(batchv1.Job)
				obj = job
			case "apps/v1 Deployment":
				learner = new(appsv1.Deployment)
				obj = learner
			case "v1 Secret":
				secret = new(corev1.Secret)
				obj = secret
			default:
				t.Fatalf("%s #%d: unexpected %s %s", f, i, head.APIVersion, head.Kind)
			}
			if err := yaml.UnmarshalStrict(doc, obj); err != nil {
				t.Fatalf("%s #%d (%s): %v", f, i, head.Kind, err)
			}
			kinds[head.Kind]++
		}
	}
	if kinds["Job"] != 1 || kinds["Deployment"] != 1 || kinds["Secret"] != 1 {
		t.Fatalf("want one Job, Deployment and Secret: %v", kinds)
	}

	// The Secret holds the store's credentials.
	for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"} {
		if _, ok := secret.StringData[k]; !ok {
			t.Errorf("secret %s lacks %s", secret.Name, k)
		}
	}
	usesSecret := func(c corev1.Container) bool {
		for _, e := range c.EnvFrom {
			if e.SecretRef != nil && e.SecretRef.Name == secret.Name {
				return true
			}
		}
		return false
	}
	flag := func(args []string, name string) string {
		for _, a := range args {
			if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
				return v
			}
		}
		return ""
	}
	s3 := func(what, loc string) {
		if !strings.HasPrefix(loc, "s3://") || !store.IsRemote(loc) {
			t.Errorf("%s %q: want an s3:// URL", what, loc)
		}
	}

	// Actors: an Indexed Job whose pods name themselves by completion index.
	js := job.Spec
	if js.CompletionMode == nil || *js.CompletionMode != batchv1.IndexedCompletion {
		t.Errorf("job completionMode %v, want Indexed", js.CompletionMode)
	}
	if js.Completions == nil || *js.Completions < 2 || js.Parallelism == nil || *js.Parallelism < 2 {
		t.Errorf("job completions/parallelism %v/%v: want N ≥ 2 actors", js.Completions, js.Parallelism)
	}
	if rp := js.Template.Spec.RestartPolicy; rp != corev1.RestartPolicyOnFailure && rp != corev1.RestartPolicyNever {
		t.Errorf("job restartPolicy %q", rp)
	}
	if len(js.Template.Spec.Containers) != 1 {
		t.Fatalf("job: %d containers", len(js.Template.Spec.Containers))
	}
	ac := js.Template.Spec.Containers[0]
	if ac.Image == "" || len(ac.Args) == 0 || ac.Args[0] != "selfplay" {
		t.Errorf("actor image %q args %v: want gridgym selfplay", ac.Image, ac.Args)
	}
	s3("actor --weights", flag(ac.Args, "weights"))
	s3("actor --out", flag(ac.Args, "out"))
	if !strings.Contains(flag(ac.Args, "actor-id"), "$(JOB_COMPLETION_INDEX)") {
		t.Errorf("actor --actor-id %q: want $(JOB_COMPLETION_INDEX)", flag(ac.Args, "actor-id"))
	}
	idx := false
	for _, e := range ac.Env {
		if e.Name == "JOB_COMPLETION_INDEX" && e.ValueFrom != nil && e.ValueFrom.FieldRef != nil &&
			strings.Contains(e.ValueFrom.FieldRef.FieldPath, "batch.kubernetes.io/job-completion-index") {
			idx = true
		}
	}
	if !idx {
		t.Error("actor env lacks JOB_COMPLETION_INDEX from the completion-index annotation")
	}
	if !usesSecret(ac) {
		t.Error("actor does not take the store's Secret")
	}

	// Learner: one replica, replaced not rolled, same store.
	ls := learner.Spec
	if ls.Replicas == nil || *ls.Replicas != 1 || ls.Strategy.Type != appsv1.RecreateDeploymentStrategyType {
		t.Errorf("learner replicas %v strategy %q: want exactly one, Recreate", ls.Replicas, ls.Strategy.Type)
	}
	if ls.Selector == nil || ls.Selector.MatchLabels["app.kubernetes.io/component"] != ls.Template.Labels["app.kubernetes.io/component"] {
		t.Error("learner selector does not match its pod labels")
	}
	lc := ls.Template.Spec.Containers[0]
	if lc.Image != ac.Image || len(lc.Args) == 0 || lc.Args[0] != "train" {
		t.Errorf("learner image %q args %v", lc.Image, lc.Args)
	}
	s3("learner --from-shards", flag(lc.Args, "from-shards"))
	s3("learner --publish", flag(lc.Args, "publish"))
	if flag(lc.Args, "from-shards") != flag(ac.Args, "out") || flag(lc.Args, "publish") != flag(ac.Args, "weights") {
		t.Error("learner and actors do not meet in the same locations")
	}
	if !usesSecret(lc) {
		t.Error("learner does not take the store's Secret")
	}
}
