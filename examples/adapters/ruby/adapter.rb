#!/usr/bin/env ruby
# frozen_string_literal: true

# A cardspec client-case adapter for a Ruby SDK that speaks the XML blocks: a starting point (docs/contract.md,
# "The adapter protocol" and "Client cases in XML").
#
#     cardspec serve --client-cmd "ruby examples/adapters/ruby/adapter.rb" --format xml --report client-report
#
# cardspec runs this once per case. It reads the case from standard input, sends the case's request once as a
# request block to the XML endpoint it is given, and prints one JSON line with what came back, under the protocol's
# field names. As shipped it sends the block with the standard library (net/http) and reads the response block with
# REXML, so that it runs as is and shows the protocol; replace `send_with_sdk` with your SDK's call. Standard library
# only.

require 'json'
require 'net/http'
require 'rexml/document'
require 'uri'

# Declare true only if the SDK hands back the gateway's `errormessage` unchanged. An SDK that translates messages
# keeps false: `errormessage` is then not compared, and nothing fails for it.
RAW_ERROR_MESSAGE = true

# A failure the SDK made itself (it raised, or gave an error part of its own).
class SdkError < StandardError; end

# The elements at a list of names below `element`.
def elements_at(element, names)
  names.reduce([element]) { |els, name| els.flat_map { |e| e.elements.to_a.select { |c| c.name == name } } }
end

def text_of(element)
  element.texts.map(&:value).join
end

# An element outside the field map, as data: its text, or a hash of "@attributes", children and "#text".
def generic(element)
  attrs = element.attributes.each_attribute.reject { |a| a.expanded_name.start_with?('xmlns') }
  children = element.elements.to_a
  if attrs.empty? && children.empty?
    text = text_of(element)
    return text.empty? ? nil : text
  end
  out = {}
  attrs.each { |a| out["@#{a.name}"] = a.value unless a.value.empty? }
  children.each do |c|
    value = generic(c)
    next if value.nil?

    out[c.name] = out.key?(c.name) ? [out[c.name], value].flatten(1) : value
  end
  text = text_of(element)
  out['#text'] = text unless text.strip.empty?
  out.empty? ? nil : out
end

# The values at one path of the field map ("a/b", "a/@x", "a/b/.", "@type"), below `element`. Empty means not set.
def values_at(element, path)
  segments = path.split('/')
  last = segments.last
  values =
    if last.start_with?('@')
      elements_at(element, segments[0...-1]).map { |e| e.attributes[last[1..]] }.compact
    else
      elements_at(element, last == '.' ? segments[0...-1] : segments).map { |e| text_of(e) }
    end
  values.reject(&:empty?)
end

# One response element (or record) as a part: every mapped field, and the elements the map does not know.
def read_part(element, xml)
  part = {}
  xml['fields'].each do |name, path|
    next if path.start_with?('../')

    values = values_at(element, path)
    next if values.empty?

    part[name] = values.length == 1 && !xml['lists'].include?(name) ? values.first : values
  end
  xml['nested'].each do |name, tag|
    records = elements_at(element, [tag])
    part[name] = records.map { |r| read_part(r, xml) } unless records.empty?
  end
  known = (xml['fields'].values + xml['nested'].values).map { |p| p.split('/').first }
  element.elements.each do |c|
    next if known.include?(c.name)

    value = generic(c)
    part[c.name] = part.key?(c.name) ? [part[c.name], value].flatten(1) : value unless value.nil?
  end
  part
end

# The block's own fields: requestreference, secrand, the version attribute as given, and any it does not know.
def read_envelope(block, xml)
  envelope = {}
  xml['fields'].each do |name, path|
    next unless path.start_with?('../')

    rest = path.delete_prefix('../')
    value = rest.start_with?('@') ? block.attributes[rest[1..]] : elements_at(block, [rest]).map { |e| text_of(e) }.first
    envelope[name] = value unless value.nil? || value.empty?
  end
  known = xml['fields'].values.select { |p| p.start_with?('../') && !p.include?('@') }.map { |p| p.delete_prefix('../') }
  block.elements.each do |c|
    next if c.name == 'response' || known.include?(c.name)

    value = generic(c)
    envelope[c.name] = value unless value.nil?
  end
  envelope
end

# Sends the case's request once; returns [parts, envelope or nil].
#
# With a real SDK, replace the body of this method:
#   - configure it with case_['username'], case_['password'] and case_['alias'] (use the alias as given: one case has
#     an alias that is not the user name), and the endpoint case_['endpoint'] (the XML address);
#   - turn its retries off (a case is one call: an SDK that retries makes "2 calls reached the gateway");
#   - call it once with case_['request'] (it builds its own request block; case_['xml']['requestblock'] shows the
#     block cardspec would send for it);
#   - return every field it gives for each response part under the protocol's names (case_['xml']['fields'] says
#     where each sits in the response block), and the envelope fields it gives (requestreference, version as the
#     block's attribute says it, secrand), or nil if it gives none;
#   - if it raises, let it raise; if it returns an error part of its own for a local failure, raise SdkError.
def send_with_sdk(case_)
  xml = case_['xml'] or raise SdkError, "this adapter speaks XML: run it with --format xml (this case is #{case_['format']})"
  uri = URI(case_['endpoint'])
  http = Net::HTTP.new(uri.host, uri.port)
  http.use_ssl = uri.scheme == 'https'
  http.max_retries = 0
  http.open_timeout = 30
  http.read_timeout = 30
  request = Net::HTTP::Post.new(uri)
  request.basic_auth(case_['username'], case_['password'])
  request['Content-Type'] = 'text/xml; charset=utf-8'
  request['Accept'] = 'text/xml'
  request.body = xml['requestblock']
  reply = http.request(request)
  block = REXML::Document.new(reply.body.to_s.dup.force_encoding('UTF-8')).root
  raise SdkError, "HTTP #{reply.code}: the answer is not a responseblock" if block.nil? || block.name != 'responseblock'

  parts = block.elements.to_a.select { |e| e.name == 'response' }.map { |e| read_part(e, xml) }
  [parts, read_envelope(block, xml)]
end

def main
  case_ = JSON.parse($stdin.read)
  begin
    parts, envelope = send_with_sdk(case_)
  rescue StandardError => e # the SDK raised: the protocol's {"error": ...}
    puts JSON.generate({ 'error' => "#{e.class}: #{e.message}" })
    return
  end
  out = { 'parts' => parts, 'rawerrormessage' => RAW_ERROR_MESSAGE }
  out['envelope'] = envelope unless envelope.nil?
  puts JSON.generate(out)
end

main if $PROGRAM_NAME == __FILE__
