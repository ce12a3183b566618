package rules

import "slices"

// NextPermutation rearranges p into its lexicographically next
// permutation (repeated values give each distinct one once) and reports
// whether there was one: a loop over every order of a few items without
// allocating (scripted bots assign robots to tasks with it).
func NextPermutation(p []int) bool {
	i := len(p) - 2
	for i >= 0 && p[i] >= p[i+1] {
		i--
	}
	if i < 0 {
		return false
	}
	j := len(p) - 1
	for p[j] <= p[i] {
		j--
	}
	p[i], p[j] = p[j], p[i]
	slices.Reverse(p[i+1:])
	return true
}
