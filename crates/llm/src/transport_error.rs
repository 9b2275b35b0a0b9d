//! What a failed HTTP exchange says, as a person reads it: the chain of causes under a
//! transport error, each once, without the TLS library's codes. The model client and the HTTP
//! block both describe their failures with it.

/// The causes under `error` (not `error` itself), outermost first. A cause already said by one
/// before it is left out (hyper's "client error (Connect)" wrapper, TLS errors repeated one level
/// down), and OpenSSL's `error:0A000086:SSL routines:function:reason:file:line:` reads as its reason.
pub fn error_causes(error: &(dyn std::error::Error + 'static)) -> Vec<String> {
    let mut causes: Vec<String> = Vec::new();
    let mut source = error.source();
    while let Some(cause) = source {
        let text = openssl_reason(&cause.to_string());
        if !text.starts_with("client error (") && !causes.iter().any(|said| said.contains(&text)) {
            causes.push(text);
        }
        source = cause.source();
    }
    causes
}

/// OpenSSL's `error:<code>:<library>:<function>:<reason>:<file>:<line>:<data>` as its reason and
/// whatever follows (native-tls adds the certificate check's verdict in brackets); other text as it is.
fn openssl_reason(text: &str) -> String {
    let Some(rest) = text.strip_prefix("error:") else { return text.to_string() };
    let parts: Vec<&str> = rest.splitn(6, ':').collect();
    let [code, _library, _function, reason, _file, line_and_after] = parts[..] else { return text.to_string() };
    if code.is_empty() || !code.chars().all(|c| c.is_ascii_hexdigit()) {
        return text.to_string();
    }
    let after = line_and_after.split_once(':').map_or("", |(_, after)| after.trim());
    format!("{reason} {after}").trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct Chain(&'static str, Option<Box<Chain>>);

    impl std::fmt::Display for Chain {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(self.0)
        }
    }

    impl std::error::Error for Chain {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            self.1.as_deref().map(|c| c as &(dyn std::error::Error + 'static))
        }
    }

    fn chain(texts: &[&'static str]) -> Chain {
        texts.iter().rev().fold(None, |inner, text| Some(Chain(text, inner.map(Box::new)))).unwrap()
    }

    #[test]
    fn openssl_codes_read_as_their_reason_and_repeats_are_said_once() {
        let error = chain(&[
            "error sending request",
            "client error (Connect)",
            "error:0A000086:SSL routines:tls_post_process_server_certificate:certificate verify failed:../ssl/statem/statem_clnt.c:1889: (self-signed certificate)",
            "error:0A000086:SSL routines:tls_post_process_server_certificate:certificate verify failed:../ssl/statem/statem_clnt.c:1889:",
        ]);
        assert_eq!(error_causes(&error), ["certificate verify failed (self-signed certificate)"]);
    }

    proptest::proptest! {
        /// Error texts come from outside (a TLS library, a server): any text reads without a
        /// panic, and only OpenSSL's coded form is changed.
        #[test]
        fn any_text_is_read_and_only_openssls_form_is_changed(text in "(error:[0-9A-F]{0,8}:)?.{0,200}") {
            let read = openssl_reason(&text);
            if !text.starts_with("error:") {
                proptest::prop_assert_eq!(read, text);
            }
        }
    }

    #[test]
    fn other_texts_are_kept_as_they_are() {
        let error = chain(&["error sending request", "tcp connect error", "Connection refused (os error 111)"]);
        assert_eq!(error_causes(&error), ["tcp connect error", "Connection refused (os error 111)"]);
        for text in ["error: not a code", "error:XYZ:a:b:c:d:e", "error:0A:too:few"] {
            assert_eq!(openssl_reason(text), text);
        }
    }
}
