//! An answer for a person: the moves and their count, or why there are none, and with `--show`
//! the board after every move.

use std::io::{self, Write as _};

use solver_core::Move;

use crate::case::{Answer, Query};
use crate::draw::{show_boards, show_grid, show_solitaire, step_text};
use crate::output::Output;

/// Writes the answer to `query`, each line after `prefix`; `show` draws the boards too.
pub(super) fn write(
    out: &mut Output,
    prefix: &str,
    show: bool,
    query: &Query,
    answer: &Answer,
) -> io::Result<()> {
    match (query, answer) {
        (Query::Eight { start, .. }, Answer::Moves(moves)) => {
            moves_line(out, prefix, moves)?;
            if show {
                show_boards(out, start, moves)?;
            }
        }
        (Query::Fifteen { start, .. }, Answer::Moves(moves)) => {
            moves_line(out, prefix, moves)?;
            if show {
                show_boards(out, start, moves)?;
            }
        }
        (Query::Sliding { start, .. }, Answer::Moves(moves)) => {
            moves_line(out, prefix, moves)?;
            if show {
                show_grid(out, start, moves)?;
            }
        }
        (Query::Sliding { start, .. }, Answer::Bounded { moves, lower_bound }) => {
            let ratio = if *lower_bound > 0 {
                format!(
                    ", so at most {:.3} times it",
                    moves.len() as f64 / f64::from(*lower_bound)
                )
            } else {
                String::new()
            };
            writeln!(
                out,
                "{prefix}{} move{} (not proven optimal: the optimum is at least {lower_bound}{ratio}): {}",
                moves.len(),
                plural(moves.len()),
                solver_core::format_moves(moves)
            )?;
            if show {
                show_grid(out, start, moves)?;
            }
        }
        (_, Answer::Unsolvable) => writeln!(
            out,
            "{prefix}unsolvable: the board and the target have different permutation parity"
        )?,
        (Query::Solitaire(pair), Answer::Reachable(steps)) => {
            let list: Vec<String> = steps.iter().map(step_text).collect();
            writeln!(
                out,
                "{prefix}reachable in {} move{} (limit {}): {}",
                steps.len(),
                plural(steps.len()),
                pair.max_moves,
                if list.is_empty() {
                    "already there".to_owned()
                } else {
                    list.join(", ")
                }
            )?;
            if show {
                show_solitaire(out, &pair.start, steps)?;
            }
        }
        (Query::Solitaire(pair), Answer::Unreachable) => writeln!(
            out,
            "{prefix}not reachable within {} move{}",
            pair.max_moves,
            plural(pair.max_moves as usize)
        )?,
        _ => writeln!(out, "{prefix}the service sent an answer of another kind")?,
    }
    Ok(())
}

fn moves_line(out: &mut Output, prefix: &str, moves: &[Move]) -> io::Result<()> {
    let letters = solver_core::format_moves(moves);
    if moves.is_empty() {
        writeln!(out, "{prefix}already solved: 0 moves")
    } else {
        writeln!(
            out,
            "{prefix}{} move{}: {letters}",
            moves.len(),
            plural(moves.len())
        )
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
