//! The retry loop around one model call: which failures are worth another attempt, how long
//! to wait, and stopping at once on cancellation.

use std::future::Future;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use crate::port::LlmError;

/// Backoff between attempts: `base · 2^(n-1)` up to `max_backoff`, or the server's
/// `Retry-After` up to `retry_after_cap`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt.
    pub max_retries: u32,
    pub base: Duration,
    pub max_backoff: Duration,
    /// A server asking for longer than this is waited on for this long only.
    pub retry_after_cap: Duration,
}

impl RetryPolicy {
    pub fn new(max_retries: u32) -> RetryPolicy {
        RetryPolicy {
            max_retries,
            base: Duration::from_millis(500),
            max_backoff: Duration::from_secs(20),
            retry_after_cap: Duration::from_secs(60),
        }
    }

    /// The wait before retry number `retry` (1-based).
    pub fn delay(&self, retry: u32, retry_after: Option<Duration>) -> Duration {
        match retry_after {
            Some(wait) => wait.min(self.retry_after_cap),
            None => self.base.saturating_mul(2u32.saturating_pow(retry.saturating_sub(1))).min(self.max_backoff),
        }
    }
}

/// One failed attempt: the error to report if it is the last, whether another attempt may
/// help, and how long the server asked us to wait.
pub(crate) struct Failure {
    pub(crate) error: LlmError,
    pub(crate) transient: bool,
    pub(crate) retry_after: Option<Duration>,
}

impl Failure {
    pub(crate) fn fatal(error: LlmError) -> Failure {
        Failure { error, transient: false, retry_after: None }
    }

    pub(crate) fn transient(error: LlmError, retry_after: Option<Duration>) -> Failure {
        Failure { error, transient: true, retry_after }
    }
}

/// Runs `attempt` until it succeeds, fails for good, or the retries are spent; each attempt is
/// bounded by `timeout`. Cancellation ends the loop at once, mid-request or mid-wait.
pub(crate) async fn with_retries<T, F, Fut>(
    policy: RetryPolicy,
    timeout: Duration,
    provider: &str,
    cancel: &CancellationToken,
    mut attempt: F,
) -> Result<T, LlmError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, Failure>>,
{
    let mut retry = 0u32;
    loop {
        let outcome = tokio::select! {
            biased;
            _ = cancel.cancelled() => return Err(LlmError::Cancelled),
            outcome = tokio::time::timeout(timeout, attempt()) => outcome,
        };
        let failure = match outcome {
            Ok(Ok(value)) => return Ok(value),
            Ok(Err(failure)) => failure,
            Err(_elapsed) => {
                Failure::transient(LlmError::Timeout { provider: provider.to_string(), after: timeout }, None)
            }
        };
        if !failure.transient {
            return Err(failure.error);
        }
        if retry >= policy.max_retries {
            return Err(match failure.error {
                LlmError::Unavailable { provider, message, .. } => {
                    LlmError::Unavailable { provider, attempts: retry + 1, message }
                }
                other => other,
            });
        }
        retry += 1;
        let wait = policy.delay(retry, failure.retry_after);
        tracing::info!(provider, retry, wait_ms = wait.as_millis() as u64, error = %failure.error, "model call failed; retrying");
        tokio::select! {
            biased;
            _ = cancel.cancelled() => return Err(LlmError::Cancelled),
            _ = tokio::time::sleep(wait) => {}
        }
    }
}

/// `Retry-After` in seconds (the form model servers use); an HTTP date is ignored and the
/// backoff applies instead. Any number of seconds gives a duration — one too long for a
/// `Duration` is the longest, which [`RetryPolicy::delay`] caps.
pub(crate) fn parse_retry_after(value: &str) -> Option<Duration> {
    let seconds = value.trim().parse::<f64>().ok().filter(|s| s.is_finite() && *s >= 0.0)?;
    Some(Duration::try_from_secs_f64(seconds).unwrap_or(Duration::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_and_is_capped() {
        let policy = RetryPolicy::new(5);
        assert_eq!(policy.delay(1, None), Duration::from_millis(500));
        assert_eq!(policy.delay(3, None), Duration::from_secs(2));
        assert_eq!(policy.delay(40, None), policy.max_backoff);
        assert_eq!(policy.delay(1, Some(Duration::from_secs(3))), Duration::from_secs(3));
        assert_eq!(policy.delay(1, Some(Duration::from_secs(3600))), policy.retry_after_cap);
    }

    #[test]
    fn retry_after_is_read_in_seconds() {
        assert_eq!(parse_retry_after(" 2 "), Some(Duration::from_secs(2)));
        assert_eq!(parse_retry_after("0.5"), Some(Duration::from_millis(500)));
        assert_eq!(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), None);
        assert_eq!(parse_retry_after("-1"), None);
        assert_eq!(parse_retry_after("NaN"), None);
        assert_eq!(parse_retry_after("inf"), None);
    }

    #[test]
    fn any_number_of_seconds_gives_a_bounded_wait() {
        let policy = RetryPolicy::new(3);
        for huge in ["1e300", "99999999999999999999", "18446744073709551616", "1.7976931348623157e308"] {
            let wait = parse_retry_after(huge).expect(huge);
            assert_eq!(policy.delay(1, Some(wait)), policy.retry_after_cap, "{huge}");
        }
    }
}
