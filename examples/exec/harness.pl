#!/usr/bin/env perl
# A bitexact harness in Perl (docs/protocol.md): md5z's candidates and searches, with Digest::MD5.
#
#   bitexact selftest --exec "perl examples/exec/harness.pl"
#   bitexact verify md5z --exec "perl examples/exec/harness.pl"
#
# --bug h0-no-bswap   a negative control: the zero count is taken from h0 as a big-endian word (clz of h0
#                     without the byte swap), the classic md5z bug; bitexact must report it wrong.
use strict;
use warnings;
use Digest::MD5 qw(md5);
use JSON::PP;

my $bug = (@ARGV == 2 && $ARGV[0] eq '--bug') ? $ARGV[1] : '';
die "harness.pl: unknown arguments @ARGV\n" if @ARGV && !$bug;
die "harness.pl: unknown bug $bug\n" if $bug && $bug ne 'h0-no-bswap';

my $M32 = 0xffffffff;
my @S = ((7, 12, 17, 22) x 4, (5, 9, 14, 20) x 4, (4, 11, 16, 23) x 4, (6, 10, 15, 21) x 4);
my @K = map { int(abs(sin($_ + 1)) * 2**32) & $M32 } 0 .. 63;
sub rotl { my ($x, $s) = @_; (($x << $s) | ($x >> (32 - $s))) & $M32 }
sub rotr { my ($x, $s) = @_; (($x >> $s) | ($x << (32 - $s))) & $M32 }
sub F { my ($x, $y, $z) = @_; (($x & $y) | (~$x & $z)) & $M32 }

# A base: its 13 words and Q[-3..13] from steps 0..12 (index t+3 holds Q[t]); refuses a non-base.
my %bases;
sub base {
  my ($hex) = @_;
  return $bases{$hex} if $bases{$hex};
  die "a base is 52 bytes\n" unless $hex =~ /^[0-9a-f]{104}$/;
  my @m = unpack('V13', pack('H*', $hex));
  my @q = (0x67452301, 0x10325476, 0x98badcfe, 0xefcdab89);
  for my $t (0 .. 12) {
    my $f = F($q[$t + 3], $q[$t + 2], $q[$t + 1]);
    push @q, ($q[$t + 3] + rotl(($q[$t] + $f + $K[$t] + $m[$t]) & $M32, $S[$t])) & $M32;
  }
  die "not a base (Q[10] != 0 or Q[11] != 0xffffffff)\n" unless $q[13] == 0 && $q[14] == $M32;
  return $bases{$hex} = { m => \@m, q => \@q };
}

# Candidate (base, i): Q[9] = i; m8, m9 and m12 from steps 8, 9 and 12 run backwards.
sub message {
  my ($b, $i) = @_;
  my @q = @{ $b->{q} };
  my @m = @{ $b->{m} };
  my $Q = sub { $q[$_[0] + 3] };
  $m[8] = (rotr(($i - $Q->(8)) & $M32, $S[8]) - $Q->(5) - F($Q->(8), $Q->(7), $Q->(6)) - $K[8]) & $M32;
  $m[9] = (rotr((0 - $i) & $M32, $S[9]) - $Q->(6) - F($i, $Q->(8), $Q->(7)) - $K[9]) & $M32;
  $m[12] = (rotr(($Q->(13) - $Q->(12)) & $M32, $S[12]) - $i - F($Q->(12), $Q->(11), $Q->(10)) - $K[12]) & $M32;
  return pack('V13', @m);
}

sub zeros {
  my ($digest) = @_;
  if ($bug eq 'h0-no-bswap') {  # the planted bug: h0's bytes read big-endian
    my $h0 = unpack('V', $digest);
    return 8 if $h0 == 0;
    my $n = 0;
    $n++ while ($h0 & (0xf0000000 >> (4 * $n))) == 0;
    return $n;
  }
  my $hex = unpack('H*', $digest);
  $hex =~ /^(0*)/;
  return length $1;
}

my %ops = (
  'md5z.candidate' => sub {
    my ($r) = @_;
    my $msg = message(base($r->{base}), $r->{index});
    my $d = md5($msg);
    return { message => unpack('H*', $msg), digest => unpack('H*', $d), zeros => zeros($d) };
  },
  'md5z.search' => sub {
    my ($r) = @_;
    my $b = base($r->{base});
    my @hits;
    for my $i ($r->{lo} .. $r->{hi} - 1) {
      my $z = zeros(md5(message($b, $i)));
      push @hits, { index => $i, zeros => $z } if $z >= $r->{threshold};
    }
    return \@hits;
  },
);

my $json = JSON::PP->new->canonical;
$| = 1;
while (my $line = <STDIN>) {
  my $msg = $json->decode($line);
  my $reply;
  if ($msg->{type} eq 'describe') {
    $reply = { bitexact_protocol => 1, type => 'describe', implementations => [ {
      name => 'md5z-perl', family => 'md5z', ops => [ sort keys %ops ], contract => 'bit-exact', max_batch => 16,
      description => 'Perl, Digest::MD5' . ($bug ? " (negative control: $bug)" : '') } ] };
  } elsif ($msg->{type} eq 'cases') {
    my @answers;
    for my $c (@{ $msg->{cases} }) {
      my $a = eval { $ops{ $c->{request}{op} }->($c->{request}) };
      push @answers, defined $a ? { id => $c->{id}, answer => $a } : { id => $c->{id}, error => ($@ || 'no answer') };
    }
    $reply = { type => 'answers', answers => \@answers };
  } elsif ($msg->{type} eq 'end') {
    exit 0;
  } else {
    die "harness.pl: unknown request type $msg->{type}\n";
  }
  print $json->encode($reply), "\n";
}
