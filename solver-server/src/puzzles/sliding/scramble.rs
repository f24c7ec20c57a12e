//! `Scramble`: a board at exactly the distance asked from the standard goal, reproducible from
//! the seed. The core picks the way of drawing for the shape and distance ([`Sampling::of`]):
//! uniform from the table of every board by distance (3×3), uniform by rejection (4×4 boards far
//! enough from the goal: uniform draws, each measured by a search bounded by the distance), or a
//! random walk lengthened until the optimal solver measures the distance asked
//! (`SAMPLING_RANDOM_WALK`). Distances beyond the shape's known radius are refused, and on shapes
//! whose radius is unknown those beyond `rows·cols·(rows+cols)` (see `Grid::max_distance`; a
//! distance no board has ends at the budget or time limit). All under the server's default node
//! budget and per-case time limit, on the scheduler.

use std::sync::Arc;

use solver_core::Board;
use solver_core::tiles::grid_board::GridBoard;
use solver_core::tiles::scramble::{EightLayers, Sampling, UniformSampler, WalkSampler};
use solver_proto::v2 as pb;
use tonic::Request;

use super::case;
use super::searches::{Searches, length};
use super::wire as convert;
use crate::errors::Failure;
use crate::scheduler::{Progress, Slice};
use crate::service::Shared;
use crate::service::puzzle::{CaseLimits, Stats};
use crate::service::unary::Call;

/// `Scramble`.
pub(crate) async fn scramble(
    shared: &Arc<Shared>,
    request: Request<pb::ScrambleRequest>,
) -> Result<pb::ScrambleResponse, Failure> {
    let call = Call::begin(shared, &request)?;
    let request = request.into_inner();
    let (distance, seed) = (request.distance, request.seed);
    // The most a caller may ask, and whether it is the shape's radius (else a multiple of its
    // size, above every known bound on the radius).
    let grid = case::grid(request.rows, request.cols)?;
    let (max, radius) = (grid.max_distance(), grid.known_radius().is_some());
    if distance > max {
        let (rows, cols) = (request.rows, request.cols);
        let message = if radius {
            format!(
                "{distance}: no {rows}x{cols} board is that far from the goal (the most is {max})"
            )
        } else {
            format!(
                "{distance}: more than a {rows}x{cols} scramble may ask (at most {max}, \
                 rows * cols * (rows + cols), above every known bound on the radius)"
            )
        };
        return Err(Failure::invalid("distance", message));
    }
    // The shape's way of drawing: the board's cells, how they were drawn, the work it cost.
    let (cells, sampling, stats) = match Sampling::of(grid, distance) {
        Sampling::Table => {
            let board = call
                .run(move |_, shared, _| {
                    let layers = &shared.families.sliding.layers;
                    let drawn = layers.get_or_init(EightLayers::build).draw(distance, seed);
                    Progress::Done(
                        drawn.map_err(|err| Failure::invalid("distance", err.to_string())),
                    )
                })
                .await?;
            let stats = Stats::no_search("table");
            (board.cells().to_vec(), pb::Sampling::Uniform, stats)
        }
        Sampling::Uniform => {
            let (board, stats) = call.run(uniform(distance, seed)).await?;
            (board.cells().to_vec(), pb::Sampling::Uniform, stats)
        }
        Sampling::RandomWalk => {
            let goal = GridBoard::goal(grid);
            let (board, stats) = call.run(walk(goal, distance, seed)).await?;
            (board.cells().to_vec(), pb::Sampling::RandomWalk, stats)
        }
    };
    let elapsed = call.received.elapsed();
    let response = convert::scramble_response(&cells, &request, sampling, stats, elapsed);
    Ok(response)
}

/// The sliced work of uniform 4×4 draws at `distance`: each candidate is measured by a search
/// that gives up once the answer is known to be longer than `distance`.
fn uniform(
    distance: u32,
    seed: u64,
) -> impl FnMut(&CaseLimits, &Shared, &Slice<'_>) -> Progress<Result<(Board<4>, Stats), Failure>>
+ Send
+ 'static {
    let mut sampler = UniformSampler::new(distance, seed);
    let mut searches = Searches::new(0);
    let goal = GridBoard::from(&Board::<4>::goal());
    move |limits, shared, slice| {
        loop {
            let candidate = GridBoard::from(&sampler.candidate());
            match searches.optimal_within(&candidate, &goal, distance, limits, shared, slice) {
                Progress::Pending => return Progress::Pending,
                Progress::Done(Err(failure)) => return Progress::Done(Err(failure)),
                Progress::Done(Ok(answer)) => {
                    if let Some(board) = sampler.measured(answer.as_deref().map(length)) {
                        return Progress::Done(Ok((board, searches.stats())));
                    }
                }
            }
            // Most candidates are refused without a search: yield at the slice's end anyway.
            if std::time::Instant::now() >= slice.end {
                return Progress::Pending;
            }
        }
    }
}

/// The sliced work of a walk from `goal` to `distance`: each candidate is measured by an optimal
/// search.
fn walk(
    goal: GridBoard,
    distance: u32,
    seed: u64,
) -> impl FnMut(&CaseLimits, &Shared, &Slice<'_>) -> Progress<Result<(GridBoard, Stats), Failure>>
+ Send
+ 'static {
    // The first walk is taken on the scheduler, in the call's first slice (it is at most
    // `Grid::max_distance` steps: under a tenth of a millisecond).
    let mut sampler = None;
    let mut searches = Searches::new(0);
    move |limits, shared, slice| {
        let sampler = sampler.get_or_insert_with(|| WalkSampler::new(goal.clone(), distance, seed));
        loop {
            let candidate = sampler.candidate();
            match searches.optimal(&candidate, &goal, limits, shared, slice) {
                Progress::Pending => return Progress::Pending,
                Progress::Done(Err(failure)) => return Progress::Done(Err(failure)),
                Progress::Done(Ok(answer)) => {
                    if let Some(board) = sampler.measured(length(&answer)) {
                        return Progress::Done(Ok((board, searches.stats())));
                    }
                }
            }
            // Cheap candidates (cache hits) could go on for ever in one slice otherwise.
            if std::time::Instant::now() >= slice.end {
                return Progress::Pending;
            }
        }
    }
}
