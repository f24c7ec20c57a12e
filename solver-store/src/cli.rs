//! The `completions` and `man` commands both programs have, defined once: their arguments, and
//! the scripts and pages generated from a program's own clap definition.
//!
//! Two things clap's generators leave undone are done here. Bash completes nothing past the
//! first word of a program whose name has a hyphen (clap-rs/clap#6421), and `solver-client` and
//! `solver-server` both have one: [`completions`] mends the script. A page lists each command
//! as `PROGRAM-COMMAND(1)`, a page nobody wrote: [`ManArgs::run`] with `--dir` writes them all.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use clap::Command;
/// The shells `completions` writes for.
pub use clap_complete::Shell;

/// The argument of `completions`.
#[derive(Debug, Clone, clap::Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: Shell,
}

impl CompletionsArgs {
    /// Writes the completion script of `program` (its clap definition) to `out`; a closed `out`
    /// ends it quietly.
    ///
    /// # Errors
    /// `out` cannot be written.
    pub fn run(&self, program: Command, out: &mut dyn Write) -> io::Result<()> {
        let script = completions(self.shell, program);
        unless_closed(out.write_all(script.as_bytes()).and_then(|()| out.flush()))
    }
}

/// The completion script of `program` for `shell`.
pub fn completions(shell: Shell, mut program: Command) -> String {
    let name = program.get_name().to_owned();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut program, &name, &mut script);
    let script = String::from_utf8(script).expect("clap_complete writes UTF-8");
    match shell {
        Shell::Bash => mend_bash(&script, &name),
        _ => script,
    }
}

/// clap_complete spells the state of a subcommand of `name` in two ways when `name` has a
/// hyphen: `my__app__subcmd__run` where the words typed are read, `my__subcmd__app__subcmd__run`
/// where the state is matched, so no state matches and bash offers nothing past the first word.
/// The matched side is spelt as the read side; a script from a clap_complete that spells both
/// alike is left as it is.
fn mend_bash(script: &str, name: &str) -> String {
    let wrong = format!("{}__subcmd__", name.replace('-', "__subcmd__"));
    let right = format!("{}__subcmd__", name.replace('-', "__"));
    if wrong == right {
        return script.to_owned();
    }
    let mut mended = String::with_capacity(script.len());
    for line in script.split_inclusive('\n') {
        let label = line.trim_start();
        match label.strip_prefix(&wrong) {
            // Only the labels of `case "${cmd}" in`: `<state>)` alone on a line.
            Some(rest) if rest.trim_end().ends_with(')') => {
                mended.push_str(&line[..line.len() - label.len()]);
                mended.push_str(&right);
                mended.push_str(rest);
            }
            _ => mended.push_str(line),
        }
    }
    mended
}

/// The argument of `man`.
#[derive(Debug, Clone, clap::Args)]
pub struct ManArgs {
    /// Instead of printing the program's page, write it and one page per command
    /// (`PROGRAM-COMMAND.1`, the pages the program's page refers to) into DIR, created if
    /// missing, and list the files written.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

impl ManArgs {
    /// Prints the page of `program` (its clap definition) on `out`, or with `--dir` writes
    /// every page and lists their paths on `out`; a closed `out` ends it quietly.
    ///
    /// # Errors
    /// A page that cannot be written, or `out`.
    pub fn run(&self, program: Command, out: &mut dyn Write) -> io::Result<()> {
        let printed = match &self.dir {
            None => man_page(program, out),
            Some(dir) => man_pages(program, dir)?
                .iter()
                .try_for_each(|path| writeln!(out, "{}", path.display())),
        };
        unless_closed(printed.and_then(|()| out.flush()))
    }
}

/// A closed output (`| head`) is no failure: the reader had what it wanted, as with any Unix
/// filter.
fn unless_closed(written: io::Result<()>) -> io::Result<()> {
    match written {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// The page of `program` alone (roff).
///
/// # Errors
/// `out` cannot be written.
pub fn man_page(program: Command, out: &mut dyn Write) -> io::Result<()> {
    clap_mangen::Man::new(for_pages(program)).render(out)
}

/// Writes the page of `program` and of each of its commands, nested ones included, into `dir`
/// (created if missing); the files written, the program's first.
///
/// # Errors
/// The directory or a page cannot be written.
pub fn man_pages(program: Command, dir: &Path) -> io::Result<Vec<PathBuf>> {
    fs::create_dir_all(dir)?;
    let mut written = Vec::new();
    write_pages(for_pages(program), dir, &mut written)?;
    Ok(written)
}

/// `program` ready for clap_mangen: without the `help` command (`--help` says the same, and a
/// page for it would only repeat its parent's), and built, so that each command knows its
/// page's name (`solver-client-databases-build`).
fn for_pages(program: Command) -> Command {
    let mut program = program.disable_help_subcommand(true);
    program.build();
    program
}

/// Writes the page of `command` and those of its commands, depth first.
fn write_pages(command: Command, dir: &Path, written: &mut Vec<PathBuf>) -> io::Result<()> {
    let commands: Vec<Command> = command
        .get_subcommands()
        .filter(|sub| !sub.is_hide_set())
        .cloned()
        .collect();
    written.push(clap_mangen::Man::new(command).generate_to(dir)?);
    for sub in commands {
        write_pages(sub, dir, written)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{Arg, ArgAction};
    use solver_test_support::completion::bash_offers;

    /// A program shaped like ours: a hyphen in its name, nested commands (one with a hyphen),
    /// a positional value and a flag with a fixed set of values.
    fn program() -> Command {
        Command::new("my-tool")
            .arg(
                Arg::new("color")
                    .long("color")
                    .global(true)
                    .value_parser(["auto", "always", "never"]),
            )
            .subcommand(
                Command::new("run")
                    .about("Run a job")
                    .arg(Arg::new("job").value_parser(["build", "check"]))
                    .arg(Arg::new("fast").long("fast").action(ArgAction::SetTrue)),
            )
            .subcommand(
                Command::new("data")
                    .about("The data")
                    .subcommand(
                        Command::new("build-all")
                            .about("Build it all")
                            .arg(Arg::new("force").long("force").action(ArgAction::SetTrue)),
                    )
                    .subcommand(Command::new("status").about("What is there")),
            )
            .subcommand(Command::new("secret").hide(true))
    }

    #[test]
    fn bash_completes_past_the_first_word() {
        let script = completions(Shell::Bash, program());
        let offers = |words: &[&str]| bash_offers(&script, "my-tool", words);
        assert!(offers(&["my-tool", ""]).contains(&"run".to_owned()));
        let run = offers(&["my-tool", "run", ""]);
        for word in ["build", "check", "--fast"] {
            assert!(run.contains(&word.to_owned()), "{word}: {run:?}");
        }
        assert_eq!(offers(&["my-tool", "run", "--fa"]), ["--fast"]);
        assert_eq!(
            offers(&["my-tool", "run", "--color", "a"]),
            ["auto", "always"]
        );
        assert_eq!(offers(&["my-tool", "data", "s"]), ["status"]);
        assert_eq!(
            offers(&["my-tool", "data", "build-all", "--f"]),
            ["--force"]
        );
        assert_eq!(
            offers(&["my-tool", "--color", "never", "run", "ch"]),
            ["check"]
        );
    }

    #[test]
    fn a_name_without_a_hyphen_is_left_alone() {
        let script = "_tool() {\n    case \"${cmd}\" in\n        tool__subcmd__run)\n";
        assert_eq!(mend_bash(script, "tool"), script);
        let other = completions(Shell::Zsh, program());
        assert!(other.contains("#compdef my-tool"), "{other}");
    }

    #[test]
    fn every_page_referred_to_is_written() {
        let dir = std::env::temp_dir().join(format!("man-pages-{}", std::process::id()));
        let written = man_pages(program(), &dir).expect("pages written");
        let names: Vec<String> = written
            .iter()
            .map(|path| path.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            [
                "my-tool.1",
                "my-tool-run.1",
                "my-tool-data.1",
                "my-tool-data-build-all.1",
                "my-tool-data-status.1"
            ]
        );
        for path in &written {
            let page = fs::read_to_string(path).unwrap();
            for reference in references(&page) {
                assert!(
                    dir.join(format!("{reference}.1")).is_file(),
                    "{}: {reference}(1) not written",
                    path.display()
                );
            }
        }
        let main = fs::read_to_string(&written[0]).unwrap();
        assert_eq!(references(&main), ["my-tool-run", "my-tool-data"]);
        let mut printed = Vec::new();
        man_page(program(), &mut printed).unwrap();
        assert_eq!(String::from_utf8(printed).unwrap(), main);
        fs::remove_dir_all(&dir).unwrap();
    }

    /// An output whose reader is gone.
    struct Closed;

    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> io::Result<()> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
    }

    /// An output that cannot be written for another reason.
    struct Full;

    impl Write for Full {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::ErrorKind::StorageFull.into())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_closed_output_is_no_failure_and_a_full_one_is() {
        let completions = CompletionsArgs { shell: Shell::Bash };
        let man = ManArgs { dir: None };
        assert!(completions.run(program(), &mut Closed).is_ok());
        assert!(man.run(program(), &mut Closed).is_ok());
        assert!(completions.run(program(), &mut Full).is_err());
        assert!(man.run(program(), &mut Full).is_err());
    }

    /// The pages a page refers to: `NAME(1)` at the start of a line (roff escapes `-` as `\-`).
    fn references(page: &str) -> Vec<String> {
        page.lines()
            .filter_map(|line| line.strip_suffix("(1)"))
            .map(|name| name.replace("\\-", "-"))
            .collect()
    }
}
