package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gridgym/gridgym/datasets"
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
shards are downloaded to a temporary folder first.`,
	}
	c.AddCommand(&cobra.Command{
		Use:   "inspect PATH",
		Short: "Schema, metadata, rows, episodes and per-agent mean returns",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			path, cleanup, err := localInput(args[0])
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
	c.AddCommand(&cobra.Command{
		Use:   "validate PATH",
		Short: "Check schema, step order, legality of actions and complete episodes",
		Long: `Check every shard under PATH: the schema and metadata, steps contiguous from
0 per (episode, seat), every action's bit set in the stored legal mask,
every episode complete, every stored state readable by the game. Exits with
status 1 when anything is wrong.`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			path, cleanup, err := localInput(args[0])
			if err != nil {
				return err
			}
			defer cleanup()
			r, err := datasets.Validate(path)
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
	})
	var format, out string
	export := &cobra.Command{
		Use:   "export PATH",
		Short: "Export shards to Parquet (zstd) for pandas, polars, DuckDB, Spark",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if format != "parquet" {
				return usagef("--format %q: want parquet", format)
			}
			if out == "" {
				out = strings.TrimSuffix(filepath.Clean(args[0]), string(filepath.Separator)) + "-parquet"
			}
			if err := datasets.ExportParquet(args[0], out); err != nil {
				return err
			}
			fmt.Fprintf(c.OutOrStdout(), "wrote Parquet to %s\n", out)
			return nil
		},
	}
	export.Flags().StringVar(&format, "format", "parquet", "output format (parquet)")
	export.Flags().StringVarP(&out, "out", "o", "", "output directory (default PATH-parquet)")
	c.AddCommand(export)
	return c
}
