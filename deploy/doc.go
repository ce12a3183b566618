// Package deploy holds gridgym's Kubernetes manifests and their guide
// (README.md); its test is the manifests' schema check.
package deploy
