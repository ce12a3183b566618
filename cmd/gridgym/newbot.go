package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gridgym/gridgym/agents/host"
	"github.com/gridgym/gridgym/rules"
)

func newNewBotCmd() *cobra.Command {
	var (
		game, out string
		force     bool
	)
	c := &cobra.Command{
		Use:   "new-bot",
		Short: "Write a template bot in a game's competition form, ready to edit",
		Long: `Write a starting bot for --game into --out, in the exact form its competition
takes, with the request and answer format (and the rule numbers of the game's
rules file) in its comments. It plays legal moves as it is; edit it, then
measure it against the game's bots with the command it prints.

  Rising Tide, Bovine Borders, Nuggets, Rectangle: a Python file defining the
      function the competition calls (my_bot_fn, bot), run as py:FILE.
      Rising Tide's helper module util.py is written beside it (gridgym also
      provides util to every hosted Rising Tide bot).
  Slime: a program (Python, standard library only) run once per move with
      the board as its argument, run as cmd:FILE; its first line names the
      interpreter by its full path (a #!/usr/bin/env line may go through a
      slow shim such as pyenv's and time out).

Existing files are kept unless --force.`,
		Example: `  gridgym new-bot --game rising-tide --out mybot
  gridgym tournament --game rising-tide --bots py:mybot/my_rising_tide_bot.py,random_rizhao --games 8`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if game == "" { // checked here, not by cobra, whose error is no usage error
				return usagef("new-bot: --game is required (valid: %s)", strings.Join(rules.Names(), ", "))
			}
			if _, err := rules.Lookup(game); err != nil {
				return usageError{err}
			}
			t, err := host.NewTemplate(game, "")
			if err != nil {
				return usageError{err}
			}
			if err := os.MkdirAll(out, 0o755); err != nil {
				return fmt.Errorf("new-bot: %w", err)
			}
			type file struct {
				name string
				data []byte
				mode os.FileMode
			}
			files := []file{{t.File, t.Source, 0o644}}
			if t.Executable {
				files[0].mode = 0o755
			}
			for _, m := range t.Modules {
				files = append(files, file{m.File, m.Source, 0o644})
			}
			if !force {
				for _, f := range files {
					p := filepath.Join(out, f.name)
					if _, err := os.Stat(p); err == nil {
						return fmt.Errorf("new-bot: %s exists (--force overwrites it)", p)
					} else if !errors.Is(err, os.ErrNotExist) {
						return fmt.Errorf("new-bot: %w", err)
					}
				}
			}
			w := c.OutOrStdout()
			for _, f := range files {
				p := filepath.Join(out, f.name)
				if err := os.WriteFile(p, f.data, f.mode); err != nil {
					return fmt.Errorf("new-bot: %w", err)
				}
				if err := os.Chmod(p, f.mode); err != nil {
					return fmt.Errorf("new-bot: %w", err)
				}
				fmt.Fprintf(w, "wrote %s\n", p)
			}
			bot := filepath.Join(out, t.File)
			if !strings.ContainsRune(bot, os.PathSeparator) {
				bot = "." + string(os.PathSeparator) + bot
			}
			fmt.Fprintf(w, "\nbot spec: %s\ntry it:   gridgym tournament --game %s --bots %s --games 8 --bot-log %s\n",
				t.Spec(bot), game, shellWord(t.Spec(bot)+",random"), shellWord(filepath.Join(out, "logs")))
			return nil
		},
	}
	c.Flags().StringVarP(&game, "game", "g", "", "the game (see 'gridgym games'); required")
	c.Flags().StringVarP(&out, "out", "o", ".", "folder to write the bot into (made if missing)")
	c.Flags().BoolVar(&force, "force", false, "overwrite existing files")
	return c
}
