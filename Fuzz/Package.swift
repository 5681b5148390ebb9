// swift-tools-version:6.1
import PackageDescription

// libFuzzer targets for alertd's parsers of untrusted input, in a package of their own so that
// the main package's builds never see the sanitizer flags. Each target is one small file whose
// `LLVMFuzzerTestOneInput` feeds the bytes to the function the server calls on them.
//
// Build and run with `scripts/fuzz.sh` (or `make fuzz`); by hand:
//
//     swift build --package-path Fuzz -c release --sanitize fuzzer \
//         -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing
//     Fuzz/.build/release/FuzzSpec Fuzz/Corpus/FuzzSpec -dict=Fuzz/Dictionaries/FuzzSpec.dict -max_total_time=60

let package = Package(
    name: "alertd-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "alertd", path: ".."),
    ],
    targets: [
        // The service the request-driving targets share (FuzzSpec, FuzzQueryParameters).
        .target(
            name: "FuzzSupport",
            dependencies: [.product(name: "_AlertdFuzzing", package: "alertd")]
        ),
        // POST /v1/specs/validate: SpecReader (JSON → draft) and SpecValidator, through the router.
        .executableTarget(
            name: "FuzzSpec",
            dependencies: [
                "FuzzSupport",
                .product(name: "AlertSpec", package: "alertd"),
                .product(name: "_AlertdFuzzing", package: "alertd"),
            ]
        ),
        // A dropped catalog file (a Critical Moments config or alertd's own), as JSON and as YAML.
        .executableTarget(
            name: "FuzzCriticalMoments",
            dependencies: [.product(name: "_AlertdFuzzing", package: "alertd")]
        ),
        // Accept-Language and ?locale= negotiation.
        .executableTarget(
            name: "FuzzAcceptLanguage",
            dependencies: [
                .product(name: "AlertSpec", package: "alertd"),
                .product(name: "_AlertdFuzzing", package: "alertd"),
            ]
        ),
        // GET /v1/catalogs/{catalog}/alerts/{type}?…: query items (after libmicrohttpd's
        // percent-decoding) to typed alert parameters, through the router.
        .executableTarget(
            name: "FuzzQueryParameters",
            dependencies: ["FuzzSupport", .product(name: "_AlertdFuzzing", package: "alertd")]
        ),
    ]
)
