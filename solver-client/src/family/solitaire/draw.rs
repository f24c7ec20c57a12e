//! A Solitaire answer for a person: the moves as text, as JSON, and the board drawn at the start
//! and after each move (`solve solitaire --show`).

use std::io::{self, Write as _};

use serde_json::{Value, json};
use solver_core::solitaire::{Position, Step};

use super::query::{Pair, SolitaireAnswer};
use crate::output::{Output, plural};

/// Writes `answer` for a person, each line after `prefix`; `show` draws every position too.
pub(super) fn write_text(
    pair: &Pair,
    out: &mut Output,
    prefix: &str,
    show: bool,
    answer: &SolitaireAnswer,
) -> io::Result<()> {
    match answer {
        SolitaireAnswer::Reachable(steps) => {
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
                show_board(out, &pair.start, steps)?;
            }
            Ok(())
        }
        SolitaireAnswer::Unreachable => writeln!(
            out,
            "{prefix}not reachable within {} move{}",
            pair.max_moves,
            plural(pair.max_moves as usize)
        ),
    }
}

/// `answer` to case `number` as one JSON object: the case, the positions asked, the answer.
pub(super) fn json(pair: &Pair, number: usize, answer: &SolitaireAnswer) -> Value {
    let squares = |p: &Position| -> Vec<[u32; 2]> {
        p.squares().iter().map(|s| [s.row(), s.col()]).collect()
    };
    let mut v = json!({
        "case": number,
        "puzzle": "solitaire",
        "start": squares(&pair.start),
        "end": squares(&pair.end),
        "max_moves": pair.max_moves,
    });
    match answer {
        SolitaireAnswer::Reachable(steps) => {
            v["reachable"] = true.into();
            v["length"] = steps.len().into();
            v["moves"] = steps
                .iter()
                .map(|s| {
                    json!({
                        "from": [s.from.row(), s.from.col()],
                        "to": [s.to.row(), s.to.col()],
                    })
                })
                .collect();
        }
        SolitaireAnswer::Unreachable => v["reachable"] = false.into(),
    }
    v
}

/// A step for a person: `(4,4) -> (4,6)`.
fn step_text(step: &Step) -> String {
    format!(
        "({},{}) -> ({},{})",
        step.from.row(),
        step.from.col(),
        step.to.row(),
        step.to.col()
    )
}

/// Prints the board at the start and after each step.
fn show_board(out: &mut Output, start: &Position, steps: &[Step]) -> io::Result<()> {
    let mut pieces: Vec<(u32, u32)> = start.squares().iter().map(|s| (s.row(), s.col())).collect();
    writeln!(out, "\nstart:")?;
    write_board(out, &pieces)?;
    for (i, step) in steps.iter().enumerate() {
        for piece in &mut pieces {
            if *piece == (step.from.row(), step.from.col()) {
                *piece = (step.to.row(), step.to.col());
            }
        }
        writeln!(out, "\n{}. {}:", i + 1, step_text(step))?;
        write_board(out, &pieces)?;
    }
    writeln!(out)
}

fn write_board(out: &mut Output, pieces: &[(u32, u32)]) -> io::Result<()> {
    writeln!(out, "    1 2 3 4 5 6 7 8")?;
    for row in 1..=8 {
        let cells: Vec<&str> = (1..=8)
            .map(|col| {
                if pieces.contains(&(row, col)) {
                    "o"
                } else {
                    "."
                }
            })
            .collect();
        writeln!(out, "  {row} {}", cells.join(" "))?;
    }
    Ok(())
}
