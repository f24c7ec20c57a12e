//! An answer as one JSON object for scripts: the case, the puzzle as asked, and the answer.

use serde_json::{Value, json};
use solver_core::solitaire::Position;

use crate::case::{Answer, Query};

/// The object for case `number`'s `query` and its `answer`.
pub(super) fn value(number: usize, query: &Query, answer: &Answer) -> Value {
    match query {
        Query::Eight { start, target } => {
            let mut v = json!({
                "case": number,
                "puzzle": "eight",
                "start": start.cells(),
                "target": target.cells(),
            });
            sliding(&mut v, answer);
            v
        }
        Query::Fifteen { start, target } => {
            let mut v = json!({
                "case": number,
                "puzzle": "fifteen",
                "start": start.cells(),
                "target": target.cells(),
            });
            sliding(&mut v, answer);
            v
        }
        Query::Sliding { start, target, .. } => {
            let grid = start.grid();
            let mut v = json!({
                "case": number,
                "puzzle": "sliding",
                "rows": grid.rows(),
                "cols": grid.cols(),
                "start": start.cells(),
                "target": target.cells(),
            });
            sliding(&mut v, answer);
            v
        }
        Query::Solitaire(pair) => {
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
                Answer::Reachable(steps) => {
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
                _ => v["reachable"] = false.into(),
            }
            v
        }
    }
}

/// The answer's fields: `solvable`, and for a solution `length`, `moves` and, for boards of any
/// shape, `optimal` and the proven `lower_bound` (with the `ratio` it bounds).
fn sliding(v: &mut Value, answer: &Answer) {
    let any_shape = v["puzzle"] == "sliding";
    match answer {
        Answer::Moves(moves) => {
            v["solvable"] = true.into();
            v["length"] = moves.len().into();
            v["moves"] = solver_core::format_moves(moves).into();
            if any_shape {
                v["optimal"] = true.into();
                v["lower_bound"] = moves.len().into();
            }
        }
        Answer::Bounded { moves, lower_bound } => {
            v["solvable"] = true.into();
            v["length"] = moves.len().into();
            v["moves"] = solver_core::format_moves(moves).into();
            v["optimal"] = false.into();
            v["lower_bound"] = (*lower_bound).into();
            if *lower_bound > 0 {
                v["ratio"] = (moves.len() as f64 / f64::from(*lower_bound)).into();
            }
        }
        _ => v["solvable"] = false.into(),
    }
}
