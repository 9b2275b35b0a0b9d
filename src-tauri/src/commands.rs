//! One Tauri command per operation of `planwright_api::studio_operations!` (the list
//! `docs/studio-api.md` documents), each a call of the `planwright_api::Studio` function of the
//! same name. Argument names are the operation's (`request` for a body, `file`, `run_id`,
//! `filter` …; camelCase on the JavaScript side). A streaming operation sends each item through
//! the UI's channel (`on_event`) and takes the name the UI gave the stream (`stream`), which
//! `cancel_stream` ends.

use planwright_api::{ApiError, Studio};
use tauri::ipc::Channel;
use tauri::State;

type Answer<T> = Result<T, ApiError>;

macro_rules! command {
    (call $name:ident ( $( $arg:ident : $ty:ty ),* ) -> $answer:ty) => {
        #[tauri::command]
        pub async fn $name(studio: State<'_, Studio>, $( $arg: $ty ),*) -> Answer<$answer> {
            studio.$name($( $arg ),*).await
        }
    };
    (stream $name:ident ( $( $arg:ident : $ty:ty ),* ) -> $answer:ty) => {
        #[tauri::command]
        pub async fn $name(
            studio: State<'_, Studio>,
            $( $arg: $ty, )*
            stream: Option<String>,
            on_event: Channel<$answer>,
        ) -> Answer<()> {
            let watch = studio.$name($( $arg ),*).await?;
            follow(&studio, watch, stream, on_event).await;
            Ok(())
        }
    };
}

macro_rules! commands {
    ($( $kind:ident $name:ident $method:ident $path:literal ( $( $ak:ident $arg:ident : $ty:ty ),* ) -> $answer:ty ; )*) => {
        $( command!($kind $name ( $( $arg : $ty ),* ) -> $answer); )*

        /// The handler of every command.
        pub fn handler() -> impl Fn(tauri::ipc::Invoke) -> bool + Send + Sync + 'static {
            tauri::generate_handler![$( $name ),*]
        }
    };
}

planwright_api::studio_operations!(commands);

/// Sends a stream's items through the UI's channel until it ends, is cancelled, or the channel
/// is gone.
async fn follow<T: tauri::ipc::IpcResponse + Clone>(
    studio: &Studio,
    mut watch: planwright_api::Watch<T>,
    stream: Option<String>,
    on_event: Channel<T>,
) {
    if let Some(name) = &stream {
        studio.name_stream(name, &watch);
    }
    while let Some(item) = watch.next().await {
        if on_event.send(item).is_err() {
            break;
        }
    }
    if let Some(name) = &stream {
        studio.forget_stream(name);
    }
}
