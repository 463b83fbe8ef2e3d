#!/usr/bin/env bash
# Makes the test-only certificates of this folder, for HTTPS tests against
# Tests/Tools/swapi_server.py. Nothing here is trusted outside the tests:
# they trust ca.pem through SSL_CERT_FILE, or inside a private mount
# namespace. Run it again only to change them; the results are committed.
#
#   ca.pem            the test CA (its key is thrown away once it has signed the others)
#   server.pem        127.0.0.1 to 127.0.0.9, localhost and SWAPI's four hosts,
#                     valid until 2126
#   expired.pem       the same names, valid 2024-04-14 to 2025-04-14 (as
#                     swapi.dev's certificate was)
#   wrong-host.pem    only other.example
#   untrusted.pem     127.0.0.1, self-signed
# Each server's file holds its certificate and its key.
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

names="DNS:localhost,DNS:swapi.dev,DNS:swapi.py4e.com,DNS:www.swapi.tech,DNS:swapi.tech,DNS:swapi.info"
for n in 1 2 3 4 5 6 7 8 9; do names="$names,IP:127.0.0.$n"; done

openssl ecparam -name prime256v1 -genkey -noout -out "$work/ca.key"
openssl req -x509 -new -key "$work/ca.key" -sha256 -days 36500 -subj "/CN=species test CA" \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" -out ca.pem

mkdir -p "$work/newcerts"
touch "$work/index.txt"
echo 1000 > "$work/serial"
cat > "$work/ca.cnf" <<CNF
[ ca ]
default_ca = test
[ test ]
dir = $work
database = $work/index.txt
new_certs_dir = $work/newcerts
serial = $work/serial
default_md = sha256
policy = anything
copy_extensions = copy
unique_subject = no
[ anything ]
commonName = supplied
CNF

# leaf NAME SUBJECT-ALT-NAMES START END
leaf() {
  openssl ecparam -name prime256v1 -genkey -noout -out "$work/$1.key"
  openssl req -new -key "$work/$1.key" -subj "/CN=$1" -addext "subjectAltName=$2" \
    -addext "extendedKeyUsage=serverAuth" -out "$work/$1.csr"
  openssl ca -batch -config "$work/ca.cnf" -cert ca.pem -keyfile "$work/ca.key" -startdate "$3" -enddate "$4" \
    -in "$work/$1.csr" -out "$work/$1.crt" 2>/dev/null
  openssl x509 -in "$work/$1.crt" > "$1.pem"
  cat "$work/$1.key" >> "$1.pem"
}
leaf server "$names" 20260101000000Z 21260101000000Z
leaf expired "$names" 20240414000000Z 20250414000000Z
leaf wrong-host "DNS:other.example" 20260101000000Z 21260101000000Z

openssl ecparam -name prime256v1 -genkey -noout -out "$work/untrusted.key"
openssl req -x509 -new -key "$work/untrusted.key" -sha256 -days 36500 -subj "/CN=127.0.0.1" \
  -addext "subjectAltName=IP:127.0.0.1" -out untrusted.pem
cat "$work/untrusted.key" >> untrusted.pem
