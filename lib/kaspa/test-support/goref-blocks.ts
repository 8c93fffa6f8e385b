/**
 * Devnet blocks from rusty-kaspa testing/integration/testdata/dags_for_json_tests/goref-1060-tx-265-blocks/blocks.json.gz,
 * which consensus_integration_tests.rs::json_test replays: it asserts each header hash and accepts each body (so the
 * hash merkle roots and coinbase payloads are valid). Converted to the vectors' format: u64 and blue work as decimal
 * strings, script public keys split into version and script.
 */
import type { SubsidyParams } from '../subsidy';
import type { HeaderVector } from './headers';
import type { TransactionVector } from './vectors';

/** The file's first line overrides devnet params: no pre-deflationary phase, Crescendo always, 10 then 1 BPS. */
export const GOREF_SUBSIDY_PARAMS: SubsidyParams = {
  deflationaryPhaseDaaScore: 0n,
  preDeflationaryPhaseBaseSubsidy: 5_000_000_000n,
  crescendoActivationDaaScore: 0n,
  bpsBeforeCrescendo: 1000n / 100n,
  bpsAfterCrescendo: 1000n / 1000n,
};

export interface BlockVector {
  name: string;
  expectedHash: string;
  header: HeaderVector;
  transactions: TransactionVector[];
}

export const GOREF_DEVNET_BLOCKS: BlockVector[] = [
  {
    name: 'first block after genesis: one parent level',
    expectedHash: '8caf7a5390c9995bac81848617dd06fd93cfff9a70f97aad7d78c1e52b5d4310',
    header: {
      version: 2,
      parentsByLevel: [
        [
          '4cb48d0b2073b802360145a15ad1abdc01d89b5c2fe4722630ab9b5fe9dfc4f2',
        ],
      ],
      hashMerkleRoot: '2254a71368184ec8bfcd973c0ba2504fdcdd5868902854bcf04e00c5b4c72a62',
      acceptedIdMerkleRoot: '842b7647a9583f793a618deb97f25cb0807fcecf6f8454ab38bbda7141145684',
      utxoCommitment: '544eb3142c000f0ad2c76ac41f4222abbababed830eeafee4b6dc56b52d5cac0',
      timestamp: '1231006505548',
      bits: 505527324,
      nonce: '0',
      daaScore: '0',
      blueScore: '1',
      blueWork: '497326',
      pruningPoint: '4cb48d0b2073b802360145a15ad1abdc01d89b5c2fe4722630ab9b5fe9dfc4f2',
    },
    transactions: [
      {
        version: 1,
        inputs: [],
        outputs: [],
        lockTime: '0',
        subnetworkId: '0100000000000000000000000000000000000000',
        gas: '0',
        payload: '010000000000000000b89a3e0a00000000002220e63b898663154e30b07da88a2a715908d05334b8565d6573e0313dc3eda9738cac',
        storageMass: '0',
      },
    ],
  },
  {
    name: 'six parent levels, eight direct parents',
    expectedHash: '0021357abe847b242971192596767c4058d7eaeb5251e5bb067a7b131b38483a',
    header: {
      version: 2,
      parentsByLevel: [
        [
          'e7479f16d789766d381a033d27eeb60cdb355b483c2109e343a01f0549195a76',
          'ba0b9459353e2eebdb02aaf3200001ea974351e3cd3f8af1f4806af5b91b5d7d',
          '27640096b085ce317164cf2636f50fa34633a9e5bf120f92fc63c5dd5f1802f9',
          'c117cb4f1a0c85b52952d9755a3884e4086b701cef84d36afbf08b3fc0dd395d',
          '9da26499ff3f05ee7026486b7be1a486429bd2fa46cd7f5859e08bb72ddcdc1e',
          '5ad0ce1ad230ecdd1b558e70587c15776d88534aa7142464173d007955b540cf',
          '27e79dc1d04db9f54cee8ef7023422dcfaec812b948abc7fec8d6a22999e61c0',
          'aacbce8be0d78a139eaa36048dffba38ddff22cef9d06fb13c80dbe7ca54e339',
        ],
        [
          '9da26499ff3f05ee7026486b7be1a486429bd2fa46cd7f5859e08bb72ddcdc1e',
        ],
        [
          '2b752f3dd74843a2bf690535a08df635fce6188f978e1bf1817cf39f1e767c4f',
        ],
        [
          '4b4f100fe610f0d807f97f2d50f783d12d4cff87b068aaf1af4689396700be55',
        ],
        [
          '4b4f100fe610f0d807f97f2d50f783d12d4cff87b068aaf1af4689396700be55',
        ],
        [
          '4b4f100fe610f0d807f97f2d50f783d12d4cff87b068aaf1af4689396700be55',
        ],
      ],
      hashMerkleRoot: '59bae1910ac54c049e61869fa3e7c7c6698379a753a7062c75668c961d6340ae',
      acceptedIdMerkleRoot: 'd557b277fd961bd076e96d0319ac74cedfe807f32547a7621bc4c394dae782cb',
      utxoCommitment: '534d0a1070610ff95877059b0d310b3f048b7952c29ea6c53207b065cc74c44f',
      timestamp: '1231006701597',
      bits: 505527324,
      nonce: '0',
      daaScore: '177',
      blueScore: '178',
      blueWork: '88524028',
      pruningPoint: '4cb48d0b2073b802360145a15ad1abdc01d89b5c2fe4722630ab9b5fe9dfc4f2',
    },
    transactions: [
      {
        version: 1,
        inputs: [],
        outputs: [
          {
            value: '44000000000',
            scriptPublicKey: {
              version: 0,
              script: '20e63b898663154e30b07da88a2a715908d05334b8565d6573e0313dc3eda9738cac',
            },
            covenant: null,
          },
          {
            value: '44000000000',
            scriptPublicKey: {
              version: 0,
              script: '20e63b898663154e30b07da88a2a715908d05334b8565d6573e0313dc3eda9738cac',
            },
            covenant: null,
          },
          {
            value: '44000000000',
            scriptPublicKey: {
              version: 0,
              script: '20e63b898663154e30b07da88a2a715908d05334b8565d6573e0313dc3eda9738cac',
            },
            covenant: null,
          },
          {
            value: '44000000000',
            scriptPublicKey: {
              version: 0,
              script: '20e63b898663154e30b07da88a2a715908d05334b8565d6573e0313dc3eda9738cac',
            },
            covenant: null,
          },
          {
            value: '44000000000',
            scriptPublicKey: {
              version: 0,
              script: '20e63b898663154e30b07da88a2a715908d05334b8565d6573e0313dc3eda9738cac',
            },
            covenant: null,
          },
          {
            value: '44000000000',
            scriptPublicKey: {
              version: 0,
              script: '20e63b898663154e30b07da88a2a715908d05334b8565d6573e0313dc3eda9738cac',
            },
            covenant: null,
          },
          {
            value: '44000000000',
            scriptPublicKey: {
              version: 0,
              script: '20e63b898663154e30b07da88a2a715908d05334b8565d6573e0313dc3eda9738cac',
            },
            covenant: null,
          },
          {
            value: '44000000000',
            scriptPublicKey: {
              version: 0,
              script: '20e63b898663154e30b07da88a2a715908d05334b8565d6573e0313dc3eda9738cac',
            },
            covenant: null,
          },
        ],
        lockTime: '0',
        subnetworkId: '0100000000000000000000000000000000000000',
        gas: '0',
        payload: 'b20000000000000000b89a3e0a00000000002220e63b898663154e30b07da88a2a715908d05334b8565d6573e0313dc3eda9738cac',
        storageMass: '0',
      },
    ],
  },
  {
    name: 'six direct parents, coinbase and four transactions',
    expectedHash: '418270649760ceea43f8468199f4dedcbedee5f80b05c2d8d5e9c113bc579c19',
    header: {
      version: 2,
      parentsByLevel: [
        [
          'c0770799a1e2e613b31cba2d0ea06a06bbe2c7784ae7f9d811184bdba948d7a3',
          '367c9d500423ea4b1a38a39c107dc6eb8f797e75a470f77ac9cc3e7698401570',
          '0ade7075685735e0dbeed408775048e6ae30112d06a90dc6843d143974f7f9c0',
          '002baebb0d02ab3f823b959480130c0e5b7c5f412f20498e2e32e9a73235f2f1',
          'e67b612d727ad6d6c5291318bb0b82271172278b5c2772e426e46d83f8fe0734',
          '3de844d8209c2a88e86cb34d7ddd39548f338bfa8aa03e56eaf7b2793bbee088',
        ],
        [
          '0ade7075685735e0dbeed408775048e6ae30112d06a90dc6843d143974f7f9c0',
        ],
        [
          '0ade7075685735e0dbeed408775048e6ae30112d06a90dc6843d143974f7f9c0',
        ],
        [
          'f5a897489c028c6b802508ddb497fc29c4815ed3abfb9040d0b1fd7126dcb1a3',
        ],
        [
          '4b4f100fe610f0d807f97f2d50f783d12d4cff87b068aaf1af4689396700be55',
        ],
        [
          '4b4f100fe610f0d807f97f2d50f783d12d4cff87b068aaf1af4689396700be55',
        ],
      ],
      hashMerkleRoot: 'd573e3c6352faf4c1455a265db474e0d56cd4e4a9d49d6a2c93f0bfa6f127397',
      acceptedIdMerkleRoot: 'cfcfc792be73ae73e8e2c5161ac02b6704ad171fa9ab8823a00d8556cd870aaa',
      utxoCommitment: 'c0f64c51241d0eb3bf6e3042a82f689e8cd03422be582e4de4e1373a8d572388',
      timestamp: '1231006769210',
      bits: 505527324,
      nonce: '0',
      daaScore: '253',
      blueScore: '254',
      blueWork: '126320804',
      pruningPoint: '4cb48d0b2073b802360145a15ad1abdc01d89b5c2fe4722630ab9b5fe9dfc4f2',
    },
    transactions: [
      {
        version: 1,
        inputs: [],
        outputs: [
          {
            value: '44000000006',
            scriptPublicKey: {
              version: 0,
              script: '20e63b898663154e30b07da88a2a715908d05334b8565d6573e0313dc3eda9738cac',
            },
            covenant: null,
          },
          {
            value: '44000000006',
            scriptPublicKey: {
              version: 0,
              script: '20e63b898663154e30b07da88a2a715908d05334b8565d6573e0313dc3eda9738cac',
            },
            covenant: null,
          },
          {
            value: '44000000006',
            scriptPublicKey: {
              version: 0,
              script: '20e63b898663154e30b07da88a2a715908d05334b8565d6573e0313dc3eda9738cac',
            },
            covenant: null,
          },
          {
            value: '44000000006',
            scriptPublicKey: {
              version: 0,
              script: '20e63b898663154e30b07da88a2a715908d05334b8565d6573e0313dc3eda9738cac',
            },
            covenant: null,
          },
          {
            value: '44000000006',
            scriptPublicKey: {
              version: 0,
              script: '20e63b898663154e30b07da88a2a715908d05334b8565d6573e0313dc3eda9738cac',
            },
            covenant: null,
          },
          {
            value: '44000000006',
            scriptPublicKey: {
              version: 0,
              script: '20e63b898663154e30b07da88a2a715908d05334b8565d6573e0313dc3eda9738cac',
            },
            covenant: null,
          },
        ],
        lockTime: '0',
        subnetworkId: '0100000000000000000000000000000000000000',
        gas: '0',
        payload: 'fe0000000000000000b89a3e0a00000000002220e63b898663154e30b07da88a2a715908d05334b8565d6573e0313dc3eda9738cac',
        storageMass: '0',
      },
      {
        version: 0,
        inputs: [
          {
            previousOutpoint: {
              transactionId: '1673e930598378fcffc8b249129550fe0ac611b42d85a2417da1fbb4890433ca',
              index: 1,
            },
            signatureScript: '4117d1544c57fb142646ee7b435aa1840a5cead1f8fb9e2e949bc59b395970b95f6891b921838cb03a15ccde54a00bdab9a2af08f3e3362d90a9298fd81b50b41501',
            sequence: '0',
            sigOpCount: 1,
          },
        ],
        outputs: [
          {
            value: '5371093',
            scriptPublicKey: {
              version: 0,
              script: '20e63b898663154e30b07da88a2a715908d05334b8565d6573e0313dc3eda9738cac',
            },
            covenant: null,
          },
          {
            value: '5371092',
            scriptPublicKey: {
              version: 0,
              script: '20e63b898663154e30b07da88a2a715908d05334b8565d6573e0313dc3eda9738cac',
            },
            covenant: null,
          },
        ],
        lockTime: '0',
        subnetworkId: '0000000000000000000000000000000000000000',
        gas: '0',
        payload: '',
        storageMass: '0',
      },
      {
        version: 0,
        inputs: [
          {
            previousOutpoint: {
              transactionId: '1673e930598378fcffc8b249129550fe0ac611b42d85a2417da1fbb4890433ca',
              index: 0,
            },
            signatureScript: '411e0b26b80a22c3414ce4e0179e5967f1295536c689587e70a371a7dd6d571e2b24f823b9f4dc1e6ad1fb9236391ee1021c4264e8295b8325f74f61fe587d76e401',
            sequence: '0',
            sigOpCount: 1,
          },
        ],
        outputs: [
          {
            value: '5371093',
            scriptPublicKey: {
              version: 0,
              script: '20e63b898663154e30b07da88a2a715908d05334b8565d6573e0313dc3eda9738cac',
            },
            covenant: null,
          },
          {
            value: '5371092',
            scriptPublicKey: {
              version: 0,
              script: '20e63b898663154e30b07da88a2a715908d05334b8565d6573e0313dc3eda9738cac',
            },
            covenant: null,
          },
        ],
        lockTime: '0',
        subnetworkId: '0000000000000000000000000000000000000000',
        gas: '0',
        payload: '',
        storageMass: '0',
      },
      {
        version: 0,
        inputs: [
          {
            previousOutpoint: {
              transactionId: '2b88bd6b2e13f5331a4b11b728cfce77c7744d8f14bd66a45bf37cb43a795fff',
              index: 1,
            },
            signatureScript: '41a18b89a206c0310c3199263c00ec565e861ec60e8a851fffbb710108924e305b335ad0e01328e8d4eeaae42d847d40021dac52d3baa18d0b24dc233f061eb88a01',
            sequence: '0',
            sigOpCount: 1,
          },
        ],
        outputs: [
          {
            value: '5371092',
            scriptPublicKey: {
              version: 0,
              script: '20e63b898663154e30b07da88a2a715908d05334b8565d6573e0313dc3eda9738cac',
            },
            covenant: null,
          },
          {
            value: '5371091',
            scriptPublicKey: {
              version: 0,
              script: '20e63b898663154e30b07da88a2a715908d05334b8565d6573e0313dc3eda9738cac',
            },
            covenant: null,
          },
        ],
        lockTime: '0',
        subnetworkId: '0000000000000000000000000000000000000000',
        gas: '0',
        payload: '',
        storageMass: '0',
      },
      {
        version: 0,
        inputs: [
          {
            previousOutpoint: {
              transactionId: '2b88bd6b2e13f5331a4b11b728cfce77c7744d8f14bd66a45bf37cb43a795fff',
              index: 0,
            },
            signatureScript: '41736a1f9778cb419f6d9f8e98f567dcb323323aa79eb79a3c00a12a942803ceb49beeeb5e1fc3544118f8650ddbbfbc3a35dbe5f285b15137f4ea290ab32fbd5801',
            sequence: '0',
            sigOpCount: 1,
          },
        ],
        outputs: [
          {
            value: '5371093',
            scriptPublicKey: {
              version: 0,
              script: '20e63b898663154e30b07da88a2a715908d05334b8565d6573e0313dc3eda9738cac',
            },
            covenant: null,
          },
          {
            value: '5371092',
            scriptPublicKey: {
              version: 0,
              script: '20e63b898663154e30b07da88a2a715908d05334b8565d6573e0313dc3eda9738cac',
            },
            covenant: null,
          },
        ],
        lockTime: '0',
        subnetworkId: '0000000000000000000000000000000000000000',
        gas: '0',
        payload: '',
        storageMass: '0',
      },
    ],
  },
];
