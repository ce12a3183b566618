package datasets

// ReadAllocBound is the most that reading a size-byte file twice (Open and
// Each, then Validate) may allocate in all, for FuzzShard: each read holds
// at most readLimit(size) through its bounded allocator, and allocates
// about as much again in Go values (records, rows, Validate's tracking).
func ReadAllocBound(size int64) int64 { return 4*readLimit(size) + 32<<20 }
