// Package datasets holds gridgym's trajectory format: the Arrow schema as
// code, a shard writer (zstd-compressed Arrow IPC files, written under a
// temporary name and renamed when complete, rolled over by row count, whole
// episodes per shard), a streaming reader that can rebuild observations from
// the stored compact state with the game's encoder, and the tooling behind
// `gridgym datasets` (inspect, validate, export to Parquet).
//
// One row is one (env step, seat). Observations are not stored: the state
// words are, and the encoder recomputes the observation, so shards stay small.
//
// # Files
//
// A run writes <prefix>-NNNNNN.arrow files (Arrow IPC file format, every
// buffer zstd-compressed) into a directory. While a shard is being written
// it is called .<prefix>-NNNNNN.arrow.tmp; it gets its final name only after
// its footer is written and the file is synced, so a crash leaves at most a
// hidden temporary file, never a torn shard. Readers (Files) ignore hidden
// files. An episode is never split across shards.
//
// # Integrity
//
// The footer's custom metadata (Arrow IPC Footer.custom_metadata, which
// other Arrow readers ignore) holds a CRC-32C of the footer arrow wrote and
// of every dictionary and record batch message (KeyChecksum…): Open checks
// the footer and dictionaries, Batch each record batch before decoding it,
// Reader.Verify all of them without decoding, Validate all of them. Shards
// written before checksums read as before, unchecked (Reader.Checked,
// Report.Unchecked). Before arrow's reader sees a file, every length and
// offset in it (footer, blocks, message metadata, buffers, uncompressed
// sizes, flatbuffer vectors) is bounded by the file's size, and the reader
// allocates through an allocator capped by it, so a corrupt shard is an
// error matching ErrCorrupt, never a crash or an allocation of gigabytes;
// EachRowSkipping lets a learner skip such shards and go on.
//
// # Schema (version 1)
//
//	game          dictionary<int32, utf8>         the game's registry name
//	run_id        dictionary<int32, utf8>         Meta.RunID
//	episode_id    uint64                          unique within the run
//	step          int32                           0, 1, 2, … within the episode
//	seat          uint8
//	state         fixed_size_list<uint64>[StateWords]  State.AppendWords before the step
//	action        int32                           head 0; −1 = none
//	action_heads  fixed_size_list<int32>[Heads]   every head (only when Heads > 1)
//	move          fixed_size_list<int16>[10]      kind, n, arg0..arg7 of the real move
//	legal         fixed_size_list<uint64>[MaskWords]   the seat's mask before the step
//	reward        float32
//	done          bool                            the rules ended the episode here
//	truncated     bool                            the episode was cut here
//	policy_logp   float32, nullable               null unless a learned policy acted
//	value         float32, nullable               null unless a learned policy acted
//	agent         dictionary<int32, utf8>         the dictionary is Meta.Agents
//
// List items are non-nullable. The file metadata (Arrow schema metadata,
// all strings) holds the Meta: gridgym.schema_version, gridgym.run_id,
// gridgym.game, gridgym.params (rules.Config.String(), parsed back with
// ParseParams), gridgym.seed, gridgym.agents (a JSON list),
// gridgym.code_version, gridgym.state_words, gridgym.mask_words,
// gridgym.heads, gridgym.reward and gridgym.created (RFC 3339).
//
// # Use
//
// Writing: NewWriter, then WriteEpisode per finished episode, then Close (or
// Abort to discard the open shard). Reading: Files lists the shards of a
// directory; Open reads one (Meta, NumRows, EachBatch, Each); EachRow walks
// a shard or a directory; an Observer rebuilds observations and masks from
// rows. Tooling: Inspect, Validate, ExportParquet take a shard or a
// directory. Rebuilding observations and Validate's state checks need the
// game registered: import package games.
package datasets
