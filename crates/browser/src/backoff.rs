//! The pauses between the looks of a wait for something not there or not ready yet.

use std::time::{Duration, Instant};

/// Short pauses at first (most of what comes, comes within a few frames), then four looks a
/// second. Each look reads the page (a locator resolved on its tree, the page's text, a
/// snapshot), so a steady 40–50 ms made a ten-second wait two hundred reads and kept a core busy
/// the whole time; Playwright backs off the same way (0, 20, 100, 100, then 500 ms).
#[derive(Debug, Default)]
pub struct Backoff {
    looks: usize,
}

impl Backoff {
    const PAUSES: [Duration; 5] = [
        Duration::from_millis(20),
        Duration::from_millis(50),
        Duration::from_millis(100),
        Duration::from_millis(100),
        Duration::from_millis(250),
    ];

    pub fn new() -> Backoff {
        Backoff::default()
    }

    /// Sleeps the next pause, cut short at `deadline` so that the last look is made at it.
    pub async fn pause(&mut self, deadline: Instant) {
        let pause = self.next_pause();
        tokio::time::sleep(pause.min(deadline.saturating_duration_since(Instant::now()))).await;
    }

    fn next_pause(&mut self) -> Duration {
        let pause = Self::PAUSES[self.looks.min(Self::PAUSES.len() - 1)];
        self.looks += 1;
        pause
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pauses_grow_to_a_quarter_second_and_stay_there() {
        let mut backoff = Backoff::new();
        let pauses: Vec<u128> = (0..8).map(|_| backoff.next_pause().as_millis()).collect();
        assert_eq!(pauses, vec![20, 50, 100, 100, 250, 250, 250, 250]);
    }
}
