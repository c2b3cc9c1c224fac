//! banco-client: the `banco` terminal client.
