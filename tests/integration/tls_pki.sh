# Sourced after harness.sh by the integration tests that run over TLS: certificates made by
# the openssl commands of docs/tls.md, step by step: a CA, then one certificate per host
# signed by it.
make_ca() {  # make_ca DIR
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -noenc -days 3650 \
    -subj "/CN=iomark CA" -keyout "$1/ca.key" -out "$1/ca.crt" 2>/dev/null
}
make_certificate() {  # make_certificate DIR NAME
  printf 'basicConstraints = critical, CA:FALSE\nkeyUsage = critical, digitalSignature\nextendedKeyUsage = serverAuth, clientAuth\n' \
    >"$1/iomark-leaf.ext"
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -noenc -subj "/CN=$2" \
    -keyout "$1/$2.key" -out "$1/$2.csr" 2>/dev/null &&
    openssl x509 -req -in "$1/$2.csr" -CA "$1/ca.crt" -CAkey "$1/ca.key" -CAcreateserial -days 825 \
      -extfile "$1/iomark-leaf.ext" -out "$1/$2.crt" 2>/dev/null
}
# make_lab_pki: the lab CA in $work/pki with certificates for controller, agentA and agentB,
# and a rogue CA in $work/rogue with one for intruder; sets pki and rogue. False (saying so)
# if openssl failed.
make_lab_pki() {
  pki=$work/pki rogue=$work/rogue
  mkdir -p "$pki" "$rogue"
  make_ca "$pki" && make_certificate "$pki" controller && make_certificate "$pki" agentA &&
    make_certificate "$pki" agentB && make_ca "$rogue" && make_certificate "$rogue" intruder ||
    { echo "tls: openssl failed"; return 1; }
}
# tls_of NAME: the --tls-* flags for NAME's certificate from the lab CA.
tls_of() { echo --tls-cert "$pki/$1.crt" --tls-key "$pki/$1.key" --tls-ca "$pki/ca.crt"; }
