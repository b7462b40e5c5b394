//! Handing encoded telemetry to a receiver (being written).
