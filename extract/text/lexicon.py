"""Short general word lists of the field (generic acronyms, model families, a few famous
benchmarks) and the tests built on them; the rules do the real work.  And the verbs authors
introduce their contribution with (regular-expression pieces) for the contribution guess, the
name rules and the task rules (present-tense forms only: "we proposed" in related work is not the
paper's purpose); stems match every inflection (``propos``).

>>> is_model_name("Llama3-8B"), is_model_name("EvalAwareBench"), is_known_dataset("CIFAR-10")
(True, False, True)
>>> bool(re.search(WE + stems(INTRO_STEMS) + r"\\w*", "Here, we also propose X", re.I))
True
"""

from __future__ import annotations

from functools import lru_cache

import re

__all__ = ["DATASET_NOUN_ENDS", "DATASET_NOUN_STARTS", "DATASET_NOUNS", "DATASET_SUFFIXES", "FUNCTION_WORDS", "GENERIC_ACRONYMS", "KNOWN_DATASETS", "LANGUAGES", "MODEL_FAMILIES",
           "MODEL_NOUNS", "MODEL_SUFFIXES", "is_known_dataset", "is_model_name",
           "CONTRIBUTION_STEMS", "INTRO_STEMS", "NAMING_STEMS", "TASK_INTRO_FORMS", "WE", "WE_STARTS", "stems", "we"]

# Generic field acronyms / established techniques: mentioned, never introduced by a paper.
GENERIC_ACRONYMS = frozenset("""
AI ML DL RL NLP CV IR GPU GPUs CPU CPUs TPU TPUs SOTA API APIs URL QA VQA ASR TTS MT NMT OOD IID
ROS ROS2 KL MLE MAP PDE PDEs ODE ODEs SDE SDEs MDP MDPs POMDP POMDPs GAN GANs VAE VAEs CNN CNNs RNN RNNs
LSTM LSTMs MLP MLPs GNN GNNs NTK SGD GD PPO DPO GRPO SFT RLHF RLAIF RLVR LoRA PEFT RAG CoT ICL
KD NAS MoE NER POS OCR MCTS EM PCA SVD SVM SVMs KNN kNN RBF ReLU BN SNR FID IoU mAP AUC AUROC
ROC F1 BLEU ROUGE NSFW PII HCI UI GUI IoT AR VR RGB RGB-D RGBD LiDAR GPS EEG fMRI MRI CT ECG ICU DNA RNA
USA US UK EU NeurIPS NIPS ICML ICLR CVPR ICCV ECCV ACL EMNLP NAACL AAAI IJCAI KDD arXiv GitHub LaTeX
JSON SQL PDF HTML RAM FLOPs FLOP VLM VLMs MLLM MLLMs LLM LLMs LM LMs PLM PLMs SLM SLMs KG KGs
ERM DRO IRM PAC VC RKHS LP QP SDP MILP TSP EHR EHRs TD DQN SAC DDPG TRPO A2C A3C BPTT MSE MAE
RMSE NLL ELBO ViT ViTs VIT NN NNs DNN DNNs ANN ANNs SNN SNNs OT GP GPs HMM HMMs CRF CRFs BO MPC
LQR SSM SSMs KV FFN FFNs MHA Seq2Seq seq2seq SSL CL FL DP HE ZK NLI NLU NLG CUDA FPGA ASIC HPC OS T2I I2I T2V
I2V TTI TTA KB KBs VLA VLAs LRM LRMs MCQ STEM SAT SMT CAD CFD FEM XAI AGI ASI SAE SAEs
SLAM MTL MARL GCN GCNs MVS SfM MCMC MRF MRFs DRL HRL UAV UAVs RoI RoIs CVaR MLM
PSNR SSIM LPIPS MOTA IDF1 HOTA EAO CIDEr METEOR SPICE NDCG MRR WER CER EER MPJPE PCK FPS
""".split())

# Pretrained-model families: a token starting with one of these followed by a digit, a hyphen,
# a dot or nothing is a model name (Llama3-8B, GPT-4o, Qwen2.5-7B, BERT-base, SD-Turbo).
MODEL_FAMILIES = tuple("""gpt chatgpt llama codellama qwen qwq mistral mixtral gemma phi claude gemini bert roberta
deberta distilbert albert electra t5 flan bart vit deit swin resnet resnext vgg alexnet efficientnet mobilenet
convnext clip siglip blip dino dinov2 deepseek olmo pythia opt bloom falcon sd sdxl flux whisper wav2vec hubert palm
llava internvl internlm baichuan chatglm glm vicuna alpaca starcoder codex o1 o3 o4 grok kimi sam dall imagen stablelm
tinyllama smollm granite command yi minicpm cogvlm pixart unet gpt2 gpt3 xlnet longformer mamba rwkv stable""".split())
MODEL_SUFFIXES = tuple("""base large small mini tiny instruct chat turbo xl xxl pro flash sonnet opus haiku coder vl
it hf nano ultra medium preview distill""".split())

# Very common public benchmarks / corpora (prefix families).
KNOWN_DATASETS = (
    "imagenet", "cifar", "mnist", "fashion-mnist", "coco", "ms-coco", "glue", "superglue", "squad",
    "mmlu", "gsm8k", "humaneval", "mbpp", "wikitext", "c4", "laion", "openwebtext", "hellaswag",
    "truthfulqa", "big-bench", "bigbench", "wmt", "librispeech", "atari", "mujoco", "d4rl",
    "procgen", "cityscapes", "ade20k", "kinetics", "ucf101", "mimic", "pubmed", "wikipedia",
    "common crawl", "ogb", "cora", "citeseer", "celeba", "ffhq", "lsun", "svhn", "stl-10",
    "pascal voc", "nuscenes", "kitti", "waymo", "shapenet", "scannet", "audioset", "commonvoice",
    "swe-bench", "arc-agi", "gpqa", "aime", "math500", "minif2f", "alpacaeval", "mt-bench",
    "chatbot arena", "webarena", "osworld", "alfworld", "minigrid", "dmc", "meta-world",
)

# Function words: inside a name ("Intrinsic Motivation with Procedure Babbling"), never one of its
# capitalized words nor an acronym's letter
FUNCTION_WORDS = frozenset("of for and from with to in on via by the a an as".split())

# Natural languages (and "multilingual" words): they qualify datasets ("English and Chinese
# datasets", "10 languages including English Hindi"), they never name one.
LANGUAGES = frozenset("""
English Chinese Mandarin Cantonese Hindi Spanish French German Italian Portuguese Russian Arabic
Bengali Urdu Japanese Korean Vietnamese Thai Indonesian Malay Turkish Persian Farsi Hebrew Greek
Dutch Swedish Norwegian Danish Finnish Polish Czech Ukrainian Romanian Hungarian Swahili Tamil
Telugu Marathi Gujarati Punjabi Kannada Malayalam Nepali Sinhala Yoruba Igbo Hausa Amharic Zulu
Tagalog Filipino Catalan Basque Latin Multilingual Bilingual Monolingual Crosslingual Cross-lingual
""".split())

DATASET_SUFFIXES = ("Bench", "bench", "Benchmark", "Eval", "QA", "Arena", "Gym", "Corpus",
                    "Set", "Data", "Suite", "Dataset", "DB", "Hub", "Leaderboard", "Test")

DATASET_NOUNS = (r"benchmarks?|datasets?|data\s+sets?|corpus|corpora|suites?|environments?|"
                 r"leaderboards?|test\s*sets?|testbeds?|simulators?|collections?|splits?|"
                 r"challenges?|competitions?|evaluation\s+sets?|databases?|archives?|repository|"
                 r"(?:public|data|open)\s+sources")
# What a match of DATASET_NOUNS starts with (lower-cased): where to look for one (literal.word_starts)
DATASET_NOUN_STARTS = ("benchmark", "data", "corp", "suite", "environment", "leaderboard", "test", "simulator",
                       "collection", "split", "challenge", "competition", "evaluation", "archive", "repository",
                       "public", "open")
# ... and what it ends with: what a cue ending in a dataset noun ends with (name_cues)
DATASET_NOUN_ENDS = tuple(w + s for w in ("benchmark", "dataset", "set", "suite", "environment", "leaderboard", "testbed",
                                          "simulator", "collection", "split", "challenge", "competition", "database",
                                          "archive") for s in ("", "s")) + ("corpus", "corpora", "repository", "sources")
MODEL_NOUNS = (r"models?|LLMs?|LMs?|VLMs?|MLLMs?|backbones?|generators?|encoders?|decoders?|"
               r"checkpoints?|judges?|architectures?|networks?|classifiers?|detectors?|agents?|"
               r"teachers?|students?|policies|baselines?")


_SIZE = re.compile(r"(?<![A-Za-z])\d+(?:\.\d+)?[BM](?![A-Za-z])")   # 1K, 16K: data sizes (ImageNet-1K, KVC16K)
_TWO_LETTERS = re.compile(r"[A-Za-z]{2}")
_DASH = re.compile(r"[-_]")


def _prefixes(words) -> tuple[tuple[int, ...], frozenset]:
    """(the lengths of ``words``, the set of them): the words a string starts with are its
    prefixes of those lengths that are in the set (a few slices instead of a scan of all)."""
    return tuple(sorted({len(w) for w in words})), frozenset(words)


_FAMILY_LENGTHS, _FAMILIES = _prefixes(MODEL_FAMILIES)
_KNOWN_LENGTHS, _KNOWN = _prefixes(KNOWN_DATASETS)


@lru_cache(maxsize=1 << 16)     # hot: called on every name-shaped token
@lru_cache(maxsize=1 << 16)     # hot: called per token (the claims' other systems)
def is_model_family(tok: str) -> bool:
    """A name of one of :data:`MODEL_FAMILIES` (ResNet-101, BERT, Llama3-8B), not only of a
    model's shape (a size or a suffix: "Human3.6M" and "Persona-Chat" are datasets' names too)."""
    low = tok.lower()
    for fam in {low[:n] for n in _FAMILY_LENGTHS} & _FAMILIES:      # the families it starts with
        rest = low[len(fam):]
        if rest == "" and len(fam) >= 3 or rest[:1] in ("-", ".", "_") or rest[:1].isdigit():
            return True
    return False


@lru_cache(maxsize=1 << 16)
def is_model_name(tok: str) -> bool:
    """A pretrained model's name (Llama3-8B, GPT-4o, Qwen2.5-7B, BERT-base), by family and
    size/version shape."""
    if is_model_family(tok):
        return True
    low = tok.lower()
    if _SIZE.search(tok) and _TWO_LETTERS.search(tok):
        return True
    parts = _DASH.split(low)
    return len(parts) > 1 and parts[-1] in MODEL_SUFFIXES and bool(parts[0])


@lru_cache(maxsize=1 << 16)     # hot: called per token against every known dataset
def is_known_dataset(tok: str) -> bool:
    """One of the few famous public datasets (or a numbered/hyphenated member of its family:
    CIFAR-10, ImageNet-1k, MNIST)."""
    low = tok.lower()
    return any(low == k or low.startswith(k + "-") or low[len(k):].isdigit()
               for k in {low[:n] for n in _KNOWN_LENGTHS} & _KNOWN)    # the ones it starts with


INTRO_STEMS = ("propos", "introduc", "present", "develop", "design", "devis", "build", "construct",
               "creat", "curat", "releas")
# ... a contribution of any kind is also "collected", "formulated", "offered"; a name "called X".
CONTRIBUTION_STEMS = INTRO_STEMS + ("contribut", "offer", "formulat", "collect", "open-sourc", "provid",
                                    "describ", "give")
NAMING_STEMS = INTRO_STEMS + ("nam", "call", "term", "dub", "coin", "put forward", "open-sourc", "describ",
                              "instantiat", "implement", "realiz")
TASK_INTRO_FORMS = (r"(?:propose|introduce|present|develop|describe|give|provide|obtain|release|design|offer)s?",
                    "build", "contribute", r"(?:is|are)\s+(?:proposed|introduced|presented)")


#: the words the subject of :func:`we` starts with (a scan for it can start only at one of them)
WE_STARTS = ("we", "this", "here")


def we(*adverbs: str) -> str:
    """The subject of an introducing sentence ("we", "this paper", "this work", "here we"), with an
    optional adverb ("we further propose", "we then introduce") or one of ``adverbs``."""
    return (r"\b(?:we|this\s+(?:paper|work)|here\s+we)\s+(?:"
            + "|".join(a + r"\s+" for a in (r"\w+ly", "also", "further", "then") + adverbs) + ")?")


WE = we("first")
#: the paper speaking of its own work, anywhere in a clause ("we", "our", "this paper")
OWN_VOICE = re.compile(r"\b(?:we|our|this\s+(?:paper|work|study|article))\b", re.I)


def stems(words: tuple[str, ...]) -> str:
    """A non-capturing alternation of ``words`` (regular-expression pieces, in order)."""
    return "(?:" + "|".join(words) + ")"
