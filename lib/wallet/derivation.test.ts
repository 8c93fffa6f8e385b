import { HDKey } from '@scure/bip32';
import { describe, expect, it } from 'vitest';
import { deriveAddress, deriveAddresses, ExtendedKeyError, extendedKeyVersions, parseExtendedPublicKey } from './derivation';
import { accountKeyOf, RUSTY_KASPA_MASTER_KPRV } from './test-support/keys';

const MASTER_KPRV = RUSTY_KASPA_MASTER_KPRV;

const GEN1_RECEIVE = [
  'kaspa:qz7ulu4c25dh7fzec9zjyrmlhnkzrg4wmf89q7gzr3gfrsj3uz6xjellj43pf',
  'kaspa:qzn3qjzf2nzyd3zj303nk4sgv0aae42v3ufutk5xsxckfels57dxjjed4qvlx',
  'kaspa:qpakxqlesqywgkq7rg4wyhjd93kmw7trkl3gpa3vd5flyt59a43yyjp28qsku',
  'kaspa:qz0skffpert8cav6h2c9nfndmhzzfhvkrjexclmwgjjwt0sutysnw6lp55ak0',
  'kaspa:qrmzemw6sm67svltul0qsk3974ema4auhrja3k68f4sfhxe4mxjwx0cj353df',
  'kaspa:qpe4apax5dquy600py9rprmukhq8fqyqv9qu072twkvgse0glhqa74ynxmvfr',
  'kaspa:qrptdge6ykdq672xqjd4rv2cedwdcz030jngsr2xhaxrn5l8pfhc294x9c7x6',
  'kaspa:qqnys5nyennjkvyl77vwneq5j2vmjss57zerd88ptzaeqhm998smxw28uth8l',
  'kaspa:qztckuvk02885rdazvj9w079qujg5qpxcdnmsvxqx0q8z7l483prkszjqwwff',
  'kaspa:qrp53krck4m0x6n0dxs7vzf5mg0x6we8e06xjpmu8xr8p4du6f89khqdzw6uw',
  'kaspa:qr4l3mahqe0jeeu6c474q5tywz08mudhddgtdneeq46unv0qx0j77kdtr52uu',
  'kaspa:qzatdsueklx7pkfzanh9u0pwr47sd3a25gfm8wypsevdejhhpj8ck3v74v54j',
  'kaspa:qqk3g5l6ymdkjfmzezx4zrv9fhr5rh0d8tm07udkqxq79n6t60tzu3fa7lnqg',
  'kaspa:qqasa6d590u6875hsese68fa9f8mnedzesn2udehp0s73ggt5cklw2ge393eq',
  'kaspa:qpuzq5jc757uxue9fradme33jd6egxr9fdznd8qysqcc5xy8k7alqpjgpdgrn',
  'kaspa:qqygznwmkl56vprrnvyvnta9qql43yv52m3qz2462vxskn32axl0xccnpsqx9',
  'kaspa:qqk974yml6uuustenwu57hn8n7d202luvn4dum0txvzjgg60g2jzsknngheak',
  'kaspa:qpxqat995cxnjla8nm0dwnneesqnk5enc6hqrua7jztels0eqjg8vsm032lww',
  'kaspa:qpyzkjs2a6k8ljx2qt4pwscj6jccr6k7pmru9k7r2t25teajjuzaz7zkesu0e',
  'kaspa:qzf5mxtvk8wgp8gr3dcj3dkzdu6w4dgpvp2f0gm9pepv9vazxrhy577fy87rt',
  'kaspa:qz44rhjkrddak9vf5z4swlmenxtfhmqc47d0lyf0j7ednyjln0u824ue33gvr',
];
const GEN1_CHANGE = [
  'kaspa:qrqrnyzdwh9ec2q05guzy3vv33f86nvdyw52qwlmk0mewzx3dgdss3pmcd692',
  'kaspa:qqx8jlz0hh0wun5ru4glt9za3v8wj3jn7v3w55a0lyud74ppetqfqny4yhw87',
  'kaspa:qzpa69mrh2nj6xk6gq38vcnzu64necp0jwaxxyusr9xcy5udhu2m7uvql8rnd',
  'kaspa:qqxddf76hr39dc7k7lpdzg065ajtvrhlm5p3edm4gyen0waneryss2c0la85t',
  'kaspa:qps4qh9dtskwvf923yl9utl74r8sdm9h2wv3mftuxcfc2cshwswc6txj0k2kl',
  'kaspa:qrds58d6nw9uz7z93ds4l6x9cgw3rquqzr69dtch6n4d8fxum8c65f7nqmhzx',
  'kaspa:qrajjrpj0krqkww7rymwuwzcd36grjr6688ynvna649q26zukhcq6eqf4jmnx',
  'kaspa:qrumkgz7hlsa748tnzvpztmf6wu9zsgqh6rppw4gzw2mvyq4ccj0y3ms9ju5l',
  'kaspa:qz2g3cj3jcklk4w95djwnm9dffcwg75aqct2pefsxujrldgs08wac99rz70rc',
  'kaspa:qznmzsvk0srfkur8l9pf55st0hnh3x8tmdyskjl9570w99lxsgs7cwrhxap2r',
  'kaspa:qptamza95k7tchmukulldps4kl6wk853dnwa52t4azzm76h588qjufmnu3rn7',
  'kaspa:qqt9h5cjqu9an68cn9k9jc2ywqmqu6kswjzeu09tqulswxkuccaxg6wz45f5r',
  'kaspa:qphr6uy46ad3ca7rerzkx7kkzfzsvfe0xanh4u5mrh538cexs4yjkww0pa4dh',
  'kaspa:qzv3qlh5q4fpy6eu5s4wj080l64del4lvg986z5uh0c3g7wf6n8pvsgm3c9e0',
  'kaspa:qp2dd6y4szgyhcendh7ncxws0qvx8k3s92tg7lvy8eel5npg4pd2ks0ctx4hl',
  'kaspa:qpkqvnkler4rwlpt720unepf3q8cayv0shx0vzydrae7a6u7ryy8zdvnmncyc',
  'kaspa:qr4v33jupxv9h6juqads0znrnw6g7an2ajuzusthnjqujquz66rewtjekhz4l',
  'kaspa:qz5pq2yzpz8ce5avrsa4uzzwrlr5a86rvs74afd6qdm3h649v08nk0qxhrl9n',
  'kaspa:qrajmn035raezl6rcvd0wvnfmdnc0qzwr686ccsrn3z5x8aqnpt8qa0e954jk',
  'kaspa:qrqg7r05nk7syxjh8rdz8wanzmyh8sdts9uexxnnwkq8fplrjammvcnrdggw0',
];
const GEN1_RECEIVE_KASPATEST = [
  'kaspatest:qz7ulu4c25dh7fzec9zjyrmlhnkzrg4wmf89q7gzr3gfrsj3uz6xjceef60sd',
  'kaspatest:qzn3qjzf2nzyd3zj303nk4sgv0aae42v3ufutk5xsxckfels57dxjnltw0jwz',
  'kaspatest:qpakxqlesqywgkq7rg4wyhjd93kmw7trkl3gpa3vd5flyt59a43yyn8vu0w8c',
  'kaspatest:qz0skffpert8cav6h2c9nfndmhzzfhvkrjexclmwgjjwt0sutysnwme80mr8t',
  'kaspatest:qrmzemw6sm67svltul0qsk3974ema4auhrja3k68f4sfhxe4mxjwxw752m0ud',
  'kaspatest:qpe4apax5dquy600py9rprmukhq8fqyqv9qu072twkvgse0glhqa75z4a5jc8',
  'kaspatest:qrptdge6ykdq672xqjd4rv2cedwdcz030jngsr2xhaxrn5l8pfhc2ynq7hqh7',
  'kaspatest:qqnys5nyennjkvyl77vwneq5j2vmjss57zerd88ptzaeqhm998smx0vp8yfkm',
  'kaspatest:qztckuvk02885rdazvj9w079qujg5qpxcdnmsvxqx0q8z7l483prk3y5mpscd',
  'kaspatest:qrp53krck4m0x6n0dxs7vzf5mg0x6we8e06xjpmu8xr8p4du6f89kkxtepyd2',
  'kaspatest:qr4l3mahqe0jeeu6c474q5tywz08mudhddgtdneeq46unv0qx0j77htdcm5dc',
  'kaspatest:qzatdsueklx7pkfzanh9u0pwr47sd3a25gfm8wypsevdejhhpj8cks2cwr2yk',
  'kaspatest:qqk3g5l6ymdkjfmzezx4zrv9fhr5rh0d8tm07udkqxq79n6t60tzus0m9sd3v',
  'kaspatest:qqasa6d590u6875hsese68fa9f8mnedzesn2udehp0s73ggt5cklwtwl220gy',
  'kaspatest:qpuzq5jc757uxue9fradme33jd6egxr9fdznd8qysqcc5xy8k7alqq5w6zkjh',
  'kaspatest:qqygznwmkl56vprrnvyvnta9qql43yv52m3qz2462vxskn32axl0xe746l7hp',
  'kaspatest:qqk974yml6uuustenwu57hn8n7d202luvn4dum0txvzjgg60g2jzsh44nc8vj',
  'kaspatest:qpxqat995cxnjla8nm0dwnneesqnk5enc6hqrua7jztels0eqjg8v3af29pl2',
  'kaspatest:qpyzkjs2a6k8ljx2qt4pwscj6jccr6k7pmru9k7r2t25teajjuzazlyszlz7a',
  'kaspatest:qzf5mxtvk8wgp8gr3dcj3dkzdu6w4dgpvp2f0gm9pepv9vazxrhy5lc0lgqj0',
];

const accountKey = accountKeyOf;

describe('Kaspa HD derivation (rusty-kaspa wallet tests)', () => {
  it('derives the receive and change addresses of hd_wallet_gen1 from the account kpub', () => {
    const key = parseExtendedPublicKey(accountKey(MASTER_KPRV, 'kpub'));
    expect(deriveAddresses(key, 'receive', 0, GEN1_RECEIVE.length, 'kaspa').map((item) => item.address)).toEqual(
      GEN1_RECEIVE,
    );
    expect(deriveAddresses(key, 'change', 0, GEN1_CHANGE.length, 'kaspa').map((item) => item.address)).toEqual(
      GEN1_CHANGE,
    );
    expect(deriveAddresses(key, 'receive', 0, GEN1_RECEIVE_KASPATEST.length, 'kaspatest').map((a) => a.address)).toEqual(
      GEN1_RECEIVE_KASPATEST,
    );
  });

  it('makes the account kpub of wallet_from_mnemonic from its master kprv', () => {
    const master =
      'kprv5y2qurMHCsXYrpeDB395BY2DPKYHUGaCMpFAYRi1cmhwin1bWRyUXVbtTyy54FCGxPnnEvbK9WaiaQgkGS9ngGxmHy1bubZYY6MTokeYP2Q';
    expect(accountKey(master, 'kpub')).toBe(
      'kpub2HtoTgsG6e1c7ixJ6JY49otNSzhEKkwnH6bsPHLAXUdYnfEuYw9LnhT7uRzaS4LSeit2rzutV6z8Fs9usdEGKnNe6p1JxfP71mK8rbUfYWo',
    );
  });

  it('derives the testnet address of address_test_by_ktrv from the published ktub at receive index 1', () => {
    const master =
      'ktrv5himbbCxArFU2CHiEQyVHP1ABS1tA1SY88CwePzGeM8gHfWmkNBXehhKsESH7UwcxpjpDdMNbwtBfyPoZ7W59kYfVnUXKRgv8UguDns2FQb';
    const ktub =
      'ktub23beJLczbxoS4emYHxm5H2rPnXJPGTwjNLAc8JyjHnSFLPMJBj5h3U8oWbn1x1jayZRov6uhvGd4zUGrWH6PkYZMWsykUsQWYqjbLnHrzUE';
    expect(accountKey(master, 'ktub')).toBe(ktub);
    const key = parseExtendedPublicKey(ktub);
    expect(key.prefix).toBe('ktub');
    expect(deriveAddress(key, 'receive', 1, 'kaspatest')).toBe(
      'kaspatest:qrc2959g0pqda53glnfd238cdnmk24zxzkj8n5x83rkktx4h73dkc4ave6wyg',
    );
  });

  it('reads the same account as xpub and kpub', () => {
    const kpub = accountKey(MASTER_KPRV, 'kpub');
    const node = HDKey.fromExtendedKey(kpub, extendedKeyVersions('kpub'));
    const xpub = new HDKey({
      versions: extendedKeyVersions('xpub'),
      depth: node.depth,
      index: node.index,
      parentFingerprint: node.parentFingerprint,
      chainCode: node.chainCode!,
      publicKey: node.publicKey!,
    }).publicExtendedKey;
    expect(xpub.startsWith('xpub')).toBe(true);
    expect(deriveAddress(parseExtendedPublicKey(xpub), 'change', 7, 'kaspa')).toBe(GEN1_CHANGE[7]);
  });
});

/* BIP32 test vectors 1 and 2 (bitcoin/bips bip-0032.mediawiki): the public derivation steps. */
describe('BIP32 published vectors, public derivation', () => {
  const xpub = extendedKeyVersions('xpub');

  it('vector 1: m/0H/1/2H → /2 → /1000000000', () => {
    const parent = HDKey.fromExtendedKey(
      'xpub6D4BDPcP2GT577Vvch3R8wDkScZWzQzMMUm3PWbmWvVJrZwQY4VUNgqFJPMM3No2dFDFGTsxxpG5uJh7n7epu4trkrX7x7DogT5Uv6fcLW5',
      xpub,
    );
    const child = parent.deriveChild(2);
    expect(child.publicExtendedKey).toBe(
      'xpub6FHa3pjLCk84BayeJxFW2SP4XRrFd1JYnxeLeU8EqN3vDfZmbqBqaGJAyiLjTAwm6ZLRQUMv1ZACTj37sR62cfN7fe5JnJ7dh8zL4fiyLHV',
    );
    expect(child.deriveChild(1000000000).publicExtendedKey).toBe(
      'xpub6H1LXWLaKsWFhvm6RVpEL9P4KfRZSW7abD2ttkWP3SSQvnyA8FSVqNTEcYFgJS2UaFcxupHiYkro49S8yGasTvXEYBVPamhGW6cFJodrTHy',
    );
  });

  it('vector 2: m → m/0', () => {
    const master = HDKey.fromExtendedKey(
      'xpub661MyMwAqRbcFW31YEwpkMuc5THy2PSt5bDMsktWQcFF8syAmRUapSCGu8ED9W6oDMSgv6Zz8idoc4a6mr8BDzTJY47LJhkJ8UB7WEGuduB',
      xpub,
    );
    expect(master.deriveChild(0).publicExtendedKey).toBe(
      'xpub69H7F5d8KSRgmmdJg2KhpAK8SR3DjMwAdkxj3ZuxV27CprR9LgpeyGmXUbC6wb7ERfvrnKZjXoUmmDznezpbZb7ap6r1D3tgFxHmwMkQTPH',
    );
  });
});

describe('parseExtendedPublicKey refusals', () => {
  it('refuses a private key without repeating it', () => {
    expect(() => parseExtendedPublicKey(MASTER_KPRV)).toThrow(ExtendedKeyError);
    try {
      parseExtendedPublicKey(MASTER_KPRV);
    } catch (error) {
      expect((error as Error).message).not.toContain(MASTER_KPRV.slice(4, 20));
    }
  });

  it('refuses unknown prefixes, bad checksums and truncated keys', () => {
    const kpub = accountKey(MASTER_KPRV, 'kpub');
    const flipped = kpub.slice(0, -1) + (kpub.endsWith('a') ? 'b' : 'a');
    for (const bad of ['ypub' + kpub.slice(4), flipped, kpub.slice(0, 60), '', 'kaspa:qz7ulu4c25dh']) {
      expect(() => parseExtendedPublicKey(bad)).toThrow(ExtendedKeyError);
    }
  });
});
