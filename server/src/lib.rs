//! banco-server: hosts rooms where people play caro and xiangqi over TCP.
//!
//! Entry point: [`run`] serves a bound listener until a shutdown token fires.
