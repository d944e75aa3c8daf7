//! The core's one error type.
//!
//! Errors are for input that cannot be understood or arithmetic that cannot be done. A scenario
//! that merely does not fit a device is not an error: it still gets numbers, a verdict and notes.

use alloc::string::String;
use core::fmt;

/// Everything that can go wrong in the core.
///
/// Input errors name the field (`context`, `params`, `config.json: hidden_size`…) so that a front
/// end can show the message beside the control that caused it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A value is out of range or malformed.
    Invalid {
        /// The input that is wrong, as the user knows it (`context`, `weights`…).
        field: &'static str,
        /// What is wrong and what is accepted, lowercase, no final period.
        reason: String,
    },
    /// A computed size does not fit in 64 bits: the input is absurd.
    Overflow {
        /// What was being computed.
        what: &'static str,
    },
    /// No catalog entry has this id or alias.
    UnknownModel {
        /// The id that was asked for.
        id: String,
    },
    /// No catalog device has this id or alias.
    UnknownDevice {
        /// The id that was asked for.
        id: String,
    },
    /// A file (config.json, GGUF, safetensors header) could not be read.
    Parse {
        /// Which format was being read.
        format: &'static str,
        /// What went wrong, and where when known.
        reason: String,
    },
}

impl Error {
    /// Shorthand for [`Error::Invalid`].
    pub fn invalid(field: &'static str, reason: impl Into<String>) -> Self {
        Error::Invalid { field, reason: reason.into() }
    }

    /// Shorthand for [`Error::Parse`].
    pub fn parse(format: &'static str, reason: impl Into<String>) -> Self {
        Error::Parse { format, reason: reason.into() }
    }

    /// The input field this error is about, when there is one.
    pub fn field(&self) -> Option<&'static str> {
        match self {
            Error::Invalid { field, .. } => Some(field),
            Error::UnknownModel { .. } => Some("model"),
            Error::UnknownDevice { .. } => Some("device"),
            _ => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Invalid { field, reason } => write!(f, "invalid {field}: {reason}"),
            Error::Overflow { what } => {
                write!(f, "{what} is too large to compute (over 2^64): check the inputs")
            }
            Error::UnknownModel { id } => {
                write!(f, "unknown model `{id}`: `headroom models` lists the catalog ids")
            }
            Error::UnknownDevice { id } => {
                write!(f, "unknown device `{id}`: `headroom devices` lists the catalog ids")
            }
            Error::Parse { format, reason } => write!(f, "cannot read {format}: {reason}"),
        }
    }
}

impl core::error::Error for Error {}

/// Result with the core's error.
pub type Result<T, E = Error> = core::result::Result<T, E>;

/// Turns a failed checked operation into [`Error::Overflow`].
pub(crate) trait OrOverflow<T> {
    fn or_overflow(self, what: &'static str) -> Result<T>;
}

impl<T> OrOverflow<T> for Option<T> {
    fn or_overflow(self, what: &'static str) -> Result<T> {
        self.ok_or(Error::Overflow { what })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn messages_are_lowercase_and_name_the_field() {
        let e = Error::invalid("context", "must be at least 1 token");
        assert_eq!(e.to_string(), "invalid context: must be at least 1 token");
        assert_eq!(e.field(), Some("context"));
        let e = Error::UnknownModel { id: "llama-9".into() };
        assert!(e.to_string().starts_with("unknown model `llama-9`"));
    }
}
