package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/gridgym/gridgym/datasets"
	"github.com/gridgym/gridgym/store"
)

// errInvalid makes `datasets validate` exit non-zero after printing its report.
var errInvalid = errors.New("dataset has problems")

func newDatasetsCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "datasets",
		Short: "Inspect, validate and export trajectory shards",
		Long: `Work with the Arrow trajectory shards that 'gridgym selfplay' writes. PATH is
one shard (.arrow) or a directory of shards; unfinished temporary files
(.tmp, left by a killed writer) are never read. PATH may also be a URL
(file://, or s3://bucket/prefix?endpoint=… for any S3-compatible store): the
shards are downloaded to a temporary folder first. export's --out may be a
URL too: the Parquet files are written locally, then uploaded.`,
		Example: `  gridgym selfplay --game slime --agents simplebot,random --out datasets/out/slime
  gridgym datasets inspect datasets/out/slime
  gridgym datasets validate datasets/out/slime/shard-000000.arrow
  gridgym datasets export datasets/out/slime --out datasets/out/slime-parquet`,
	}
	c.AddCommand(&cobra.Command{
		Use:   "inspect PATH|URL",
		Short: "Schema, metadata, rows, episodes and per-agent mean returns",
		Long: `Print the schema, metadata, rows, episodes and per-agent mean returns of
the shards under PATH: a shard, a folder, or a URL (file://…,
s3://bucket/prefix?endpoint=…: downloaded to a temporary folder first).`,
		Example: `  gridgym datasets inspect datasets/out/slime
  gridgym datasets inspect 's3://gridgym/shards/slime?endpoint=http://minio:9000&use_path_style=true'`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			path, cleanup, err := localInput(args[0], ".arrow")
			if err != nil {
				return err
			}
			defer cleanup()
			s, err := datasets.Inspect(path)
			if err != nil {
				return err
			}
			return s.WriteText(c.OutOrStdout())
		},
	})
	var strict bool
	validate := &cobra.Command{
		Use:   "validate PATH|URL",
		Short: "Check schema, step order, legality of actions and complete episodes",
		Long: `Check every shard under PATH: the file's structure (every length and offset
within the file), its checksums (CRC-32C of the footer and of every record
batch: a flipped bit anywhere is reported), the schema and metadata, steps
contiguous from 0 per (episode, seat), every action's bit set in the stored
legal mask, every episode complete, every stored state readable by the game.
A shard without checksums fails when this version wrote it (its footer has
the other checksum keys, or it was created after shards carried checksums):
a damaged footer key must not pass as unchecked; --strict=false accepts it
with a notice, and --strict given explicitly fails every shard without
checksums. Shards written before shards carried checksums are listed as
unchecked (they are still read and checked otherwise). A folder must hold
one game's shards. Exits with status 1 when anything is wrong. PATH may be a URL (file://…,
s3://bucket/prefix?endpoint=…): downloaded to a temporary folder first.`,
		Example: `  gridgym datasets validate datasets/out/slime
  gridgym datasets validate datasets/out/slime/shard-000000.arrow`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			path, cleanup, err := localInput(args[0], ".arrow")
			if err != nil {
				return err
			}
			defer cleanup()
			opt := datasets.ValidateOptions{Checksums: datasets.ChecksumsExpected}
			switch {
			case !strict:
				opt.Checksums = datasets.ChecksumsOptional
			case c.Flags().Changed("strict"):
				opt.Checksums = datasets.ChecksumsRequired
			}
			r, err := datasets.ValidateWith(path, opt)
			if err != nil {
				return err
			}
			if err := r.WriteText(c.OutOrStdout()); err != nil {
				return err
			}
			if !r.OK() {
				return errInvalid
			}
			return nil
		},
	}
	validate.Flags().BoolVar(&strict, "strict", true, "fail a shard without checksums that this version wrote (default); given explicitly, fail every shard without checksums; =false: accept them with a notice")
	c.AddCommand(validate)
	var format, out string
	export := &cobra.Command{
		Use:   "export PATH|URL",
		Short: "Export shards to Parquet (zstd) for pandas, polars, DuckDB, Spark",
		Long: `Export every shard under PATH (a shard, a folder, or a URL: file://…,
s3://bucket/prefix?endpoint=…) to Parquet files, zstd-compressed, in --out
(default: PATH-parquet beside PATH, a URL beside a URL). A URL --out is
written locally, then uploaded file by file.`,
		Example: `  gridgym datasets export datasets/out/slime-20261123-120000
  gridgym datasets export 's3://gridgym/run1/shards?endpoint=http://minio:9000&use_path_style=true' --out runs/run1-parquet`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if format != "parquet" {
				return usagef("--format %q: want parquet", format)
			}
			if out == "" {
				out = store.Sibling(args[0], "-parquet")
			}
			in, cleanup, err := localInput(args[0], ".arrow")
			if err != nil {
				return err
			}
			defer cleanup()
			o, err := openOutput(out)
			if err != nil {
				return err
			}
			if err := datasets.ExportParquet(in, o.dir); err != nil {
				return err
			}
			if err := o.finish(context.Background()); err != nil {
				return err
			}
			fmt.Fprintf(c.OutOrStdout(), "wrote Parquet to %s\n", store.Redact(out))
			return nil
		},
	}
	export.Flags().StringVar(&format, "format", "parquet", "output format (parquet)")
	export.Flags().StringVarP(&out, "out", "o", "", "output folder or URL (file://, s3://…; default PATH-parquet)")
	c.AddCommand(export)
	return c
}
