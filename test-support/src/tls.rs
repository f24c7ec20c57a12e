//! Certificate authorities made in the tests (rcgen), for the TLS tests of the server and the
//! client: a CA, certificates it signs, all as PEM text.

use std::path::Path;

use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair};

/// A certificate authority of the tests.
#[derive(Debug)]
pub struct Ca {
    issuer: CertifiedIssuer<'static, KeyPair>,
}

impl Ca {
    /// A new self-signed CA called `name`.
    ///
    /// # Panics
    /// When rcgen cannot make a key or a certificate.
    #[must_use]
    pub fn new(name: &str) -> Self {
        let mut params = CertificateParams::new(Vec::<String>::new()).expect("no names to check");
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.distinguished_name.push(DnType::CommonName, name);
        let key = KeyPair::generate().expect("a key");
        Self {
            issuer: CertifiedIssuer::self_signed(params, key).expect("a CA certificate"),
        }
    }

    /// The CA's certificate (PEM).
    #[must_use]
    pub fn pem(&self) -> String {
        self.issuer.pem()
    }

    /// A certificate for `names` signed by this CA: (certificate PEM, key PEM).
    ///
    /// # Panics
    /// When a name is not a valid DNS name or IP address.
    #[must_use]
    pub fn sign(&self, names: &[&str]) -> (String, String) {
        let names: Vec<String> = names.iter().map(|&n| n.to_owned()).collect();
        let key = KeyPair::generate().expect("a key");
        let cert = CertificateParams::new(names)
            .expect("valid names")
            .signed_by(&key, &self.issuer)
            .expect("a signed certificate");
        (cert.pem(), key.serialize_pem())
    }

    /// Writes this CA's certificate to `path`.
    ///
    /// # Panics
    /// When the file cannot be written.
    pub fn write(&self, path: &Path) {
        std::fs::write(path, self.pem()).expect("write the CA certificate");
    }

    /// Writes a certificate for `names` signed by this CA and its key to `cert` and `key`.
    ///
    /// # Panics
    /// When the files cannot be written.
    pub fn sign_into(&self, names: &[&str], cert: &Path, key: &Path) {
        let (pem, key_pem) = self.sign(names);
        std::fs::write(cert, pem).expect("write the certificate");
        std::fs::write(key, key_pem).expect("write the key");
    }
}
