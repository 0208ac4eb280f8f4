<?php
/**
 * A cardspec client-case adapter for a PHP SDK: a starting point (docs/contract.md, "The adapter protocol").
 *
 *     cardspec serve --client-cmd "php examples/adapters/php/adapter.php" --report client-report
 *
 * cardspec runs this once per case. It reads the case from standard input, sends the case's request object once,
 * and prints one JSON line with what came back. As shipped it sends the request with PHP's own HTTP stream (so that
 * it runs as is, and shows the protocol); replace sendWithSdk() with your SDK's call. No Composer package needed.
 */

// Declare true only if the SDK hands back the gateway's `errormessage` unchanged. An SDK that translates messages
// keeps false: `errormessage` is then not compared, and nothing fails for it.
const RAW_ERROR_MESSAGE = true;

/**
 * Sends $case['request'] once; returns [parts, envelope or null].
 *
 * With a real SDK, replace the body of this function:
 *  - configure it with $case['username'], $case['password'] and $case['alias'] (use the alias as given: one case
 *    has an alias that is not the user name), and the endpoint $case['endpoint'] ($case['url'] . '/json/');
 *  - turn its retries off (a case is one call);
 *  - call it once with $case['request'] (the SDK may add its own fields and headers);
 *  - return every field it gives for each response part, as it gives it (strings stay strings, arrays stay arrays),
 *    and the envelope fields it gives (requestreference, version, secrand), or null if it gives none;
 *  - if it throws, let it throw; if it returns an error part of its own for a local failure (a part whose
 *    requesttypedescription is "ERROR" that the gateway did not send), throw an exception with its message.
 */
function sendWithSdk(array $case): array
{
    if (($case['format'] ?? 'json') !== 'json') {
        // This template speaks JSON; an SDK's XML side is played with --format xml and an adapter sending the XML block.
        throw new RuntimeException('this adapter speaks JSON only: the case is played in ' . $case['format']);
    }
    $endpoint = $case['endpoint'] ?? $case['url'] . '/json/';
    $body = json_encode(['alias' => $case['alias'], 'version' => '1.00', 'request' => [$case['request']]], JSON_UNESCAPED_SLASHES);
    $context = stream_context_create(['http' => [
        'method' => 'POST',
        'header' => "Content-Type: application/json\r\nAccept: application/json\r\nAuthorization: Basic "
            . base64_encode($case['username'] . ':' . $case['password']) . "\r\n",
        'content' => $body,
        'ignore_errors' => true,
        'timeout' => 30,
    ]]);
    $text = file_get_contents($endpoint, false, $context);
    if ($text === false) {
        throw new RuntimeException('no answer from ' . $endpoint);
    }
    // Decoded as associative arrays: objects and lists keep their values, but an empty JSON object would print
    // back as [] (a list). An SDK that returns objects has no such issue; the envelope is cast to an object below.
    $answer = json_decode($text, true, 512, JSON_THROW_ON_ERROR);
    $parts = $answer['response'] ?? [];
    unset($answer['response']);
    return [$parts, $answer];
}

$case = json_decode(stream_get_contents(STDIN), true, 512, JSON_THROW_ON_ERROR);
try {
    [$parts, $envelope] = sendWithSdk($case);
} catch (Throwable $err) {
    echo json_encode(['error' => get_class($err) . ': ' . $err->getMessage()]), "\n";
    exit(0);
}
$out = ['parts' => $parts, 'rawerrormessage' => RAW_ERROR_MESSAGE];
if ($envelope !== null) {
    $out['envelope'] = (object) $envelope;
}
echo json_encode($out, JSON_UNESCAPED_SLASHES), "\n";
