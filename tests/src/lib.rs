//! banco-tests: helpers for end-to-end tests (a server on 127.0.0.1:0 and protocol
//! clients that speak to it); the tests themselves live in `tests/tests/`.
