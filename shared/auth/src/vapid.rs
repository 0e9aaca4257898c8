//! The server's VAPID key (RFC 8292): the P-256 key its Web Push messages are signed
//! with, so a push service knows they come from the server the subscription was made for.
//! Written as text `vapid:<base64url 32-byte private scalar>`; its public key (65 bytes,
//! uncompressed, base64url) is what apps give the browser as `applicationServerKey`.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use p256::SecretKey;
use p256::elliptic_curve::sec1::ToEncodedPoint;
use p256::pkcs8::EncodePrivateKey;
use rand::RngCore;
use serde::Serialize;

use crate::AuthError;

/// The prefix of a VAPID key's text.
const PREFIX: &str = "vapid:";

/// The server's VAPID key.
#[derive(Clone)]
pub struct VapidKey {
    secret: SecretKey,
    /// The key as jsonwebtoken signs with it (PKCS#8).
    encoding: EncodingKey,
}

impl std::fmt::Debug for VapidKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "VapidKey({})", self.public_key())
    }
}

/// The claims of a VAPID token.
#[derive(Serialize)]
struct VapidClaims<'a> {
    aud: &'a str,
    exp: i64,
    sub: &'a str,
}

impl VapidKey {
    /// A new random key.
    pub fn generate() -> VapidKey {
        loop {
            let mut scalar = [0_u8; 32];
            rand::rng().fill_bytes(&mut scalar);
            if let Ok(key) = VapidKey::from_scalar(&scalar) {
                return key;
            }
        }
    }

    /// Reads `vapid:<base64url scalar>`.
    pub fn parse(text: &str) -> Result<VapidKey, AuthError> {
        let encoded = text
            .trim()
            .strip_prefix(PREFIX)
            .ok_or_else(|| AuthError::Key(format!("a VAPID key starts with `{PREFIX}`")))?;
        let scalar = URL_SAFE_NO_PAD
            .decode(encoded.trim_end_matches('='))
            .map_err(|e| AuthError::Key(format!("VAPID key: {e}")))?;
        VapidKey::from_scalar(&scalar)
    }

    fn from_scalar(scalar: &[u8]) -> Result<VapidKey, AuthError> {
        let secret = SecretKey::from_slice(scalar)
            .map_err(|_| AuthError::Key("a VAPID key is a P-256 scalar of 32 bytes".into()))?;
        let der = secret
            .to_pkcs8_der()
            .map_err(|e| AuthError::Key(format!("VAPID key: {e}")))?;
        Ok(VapidKey {
            encoding: EncodingKey::from_ec_der(der.as_bytes()),
            secret,
        })
    }

    /// The key as text, as [`VapidKey::parse`] reads it.
    pub fn to_text(&self) -> String {
        format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(self.secret.to_bytes()))
    }

    /// The public key, uncompressed, in base64url: the `applicationServerKey` of a
    /// subscription, and the `k` of the `Authorization` header.
    pub fn public_key(&self) -> String {
        let point = self.secret.public_key().to_encoded_point(false);
        URL_SAFE_NO_PAD.encode(point.as_bytes())
    }

    /// The `Authorization` header's value for a push to `endpoint`'s origin (RFC 8292):
    /// `vapid t=<ES256 JWT>, k=<public key>`, the token naming the origin as its audience,
    /// `subject` (a `mailto:` or `https:` contact) and expiring at `expires` (seconds since
    /// the epoch; push services take at most 24 hours ahead).
    pub fn authorization(
        &self,
        origin: &str,
        subject: &str,
        expires: i64,
    ) -> Result<String, AuthError> {
        let claims = VapidClaims {
            aud: origin,
            exp: expires,
            sub: subject,
        };
        let token = jsonwebtoken::encode(&Header::new(Algorithm::ES256), &claims, &self.encoding)
            .map_err(|e| AuthError::Key(format!("VAPID token: {e}")))?;
        Ok(format!("vapid t={token}, k={}", self.public_key()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_reads_back_from_its_text_and_signs() {
        let key = VapidKey::generate();
        let again = VapidKey::parse(&key.to_text()).unwrap();
        assert_eq!(again.public_key(), key.public_key());
        assert_eq!(URL_SAFE_NO_PAD.decode(key.public_key()).unwrap().len(), 65);
        let header = key
            .authorization("https://push.example.org", "mailto:ops@example.org", 1)
            .unwrap();
        assert!(header.starts_with("vapid t=ey"), "{header}");
        assert!(header.ends_with(&format!(", k={}", key.public_key())));
        assert!(VapidKey::parse("hs256:abc").is_err());
        assert!(VapidKey::parse("vapid:AAAA").is_err());
    }
}
