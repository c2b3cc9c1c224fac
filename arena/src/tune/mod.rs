//! Tuning the engines' evaluations. Files are named `GAME_METHOD`:
//!
//! - [`caro_texel`]: Texel's method for caro, fitting the evaluation's weights (or a
//!   point table) to saved games (`banco-arena caro-tune`).
//! - [`xiangqi_texel`]: Texel's method for xiangqi: balanced openings, quiet positions
//!   from saved games, the fit (`banco-arena xiangqi-openings`, `xiangqi-positions`,
//!   `texel`).
//! - [`xiangqi_selfplay`]: self-play tests of changed xiangqi weights against the
//!   defaults at a fixed node count (`banco-arena tune`). Caro has no twin: its weights
//!   are checked by matches between builds.

pub mod caro_texel;
pub mod xiangqi_selfplay;
pub mod xiangqi_texel;
