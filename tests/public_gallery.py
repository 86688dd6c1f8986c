"""Layers and models from public Keras code, adapted small, to try ``mp.doctor`` on real code.

Each entry names the repository, path and commit it was read from. The adaptations keep the
code of ``call`` (and ``train_step``) as it is there -- the parts that decide how a layer behaves
under a mixed policy -- with smaller sizes and without data loading. Where the published code
needs something Keras 3 no longer has, the change is said in the entry's comment.

Sources, both under the Apache License 2.0:

* keras-io (https://github.com/keras-team/keras-io), Copyright the Keras authors;
* keras-hub (https://github.com/keras-team/keras-hub), Copyright the KerasHub authors.

Whole models with their own ``train_step`` (GANs, a diffusion model, a speech Transformer that
takes a dictionary batch, PixelCNN) are in ``tests/public_gallery_training.py``.

What is *true* of each entry is not written here from reading the code: ``tests/
test_public_gallery.py`` establishes it by running the entry under float32 and both mixed
policies (a float32 twin with the same weights, the training branch, a training step) and
asserts that it still holds.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import keras
import numpy as np
import public_gallery_training as training
import tensorflow as tf
from keras import layers, ops

KERAS_IO = "keras-team/keras-io"
KERAS_HUB = "keras-team/keras-hub"
HUB_COMMIT = "71453d08f59edc90d276e999319fc51e61cbf82c"
CCT = (KERAS_IO, "examples/vision/cct.py", "501fb4cbe62e5b5c434393f512a452ef833640a1")
VAE_SOURCE = (KERAS_IO, "examples/generative/vae.py", "cca4efba8e0b8514ae3817931696294039b3bfc9")
TEXT = (
    KERAS_IO,
    "examples/nlp/text_classification_with_transformer.py",
    "8bda227c08adf855a8b9ec579840e2a7171fff60",
)
MLP = (
    KERAS_IO,
    "examples/vision/mlp_image_classification.py",
    "8bda227c08adf855a8b9ec579840e2a7171fff60",
)


def _hub(path: str) -> tuple[str, str, str]:
    return (KERAS_HUB, f"keras_hub/src/{path}", HUB_COMMIT)


def _normal(*shape: int, scale: float = 1.0, seed: int = 0) -> np.ndarray:
    return (np.random.default_rng(seed).standard_normal(shape) * scale).astype("float32")


# --- keras-io: vision/cct.py --------------------------------------------------------------------


class StochasticDepth(layers.Layer):
    def __init__(self, drop_prop, **kwargs):
        super().__init__(**kwargs)
        self.drop_prob = drop_prop

    def call(self, x, training=None):
        if training:
            keep_prob = 1 - self.drop_prob
            shape = (tf.shape(x)[0],) + (1,) * (tf.shape(x).shape[0] - 1)
            random_tensor = keep_prob + tf.random.uniform(shape, 0, 1)
            random_tensor = tf.floor(random_tensor)
            return (x / keep_prob) * random_tensor
        return x


class CCTTokenizer(layers.Layer):
    # num_output_channels [64, 128] -> [8, 16]
    def __init__(self, kernel_size=3, stride=1, padding=1, pooling_kernel_size=3,
                 pooling_stride=2, num_conv_layers=2, num_output_channels=(8, 16), **kwargs):  # fmt: skip
        super().__init__(**kwargs)
        self.conv_model = keras.Sequential()
        for i in range(num_conv_layers):
            self.conv_model.add(
                layers.Conv2D(num_output_channels[i], kernel_size, stride, padding="valid",
                              use_bias=False, activation="relu", kernel_initializer="he_normal")
            )  # fmt: skip
            self.conv_model.add(layers.ZeroPadding2D(padding))
            self.conv_model.add(layers.MaxPool2D(pooling_kernel_size, pooling_stride, "same"))

    def call(self, images):
        outputs = self.conv_model(images)
        return tf.reshape(
            outputs, (-1, tf.shape(outputs)[1] * tf.shape(outputs)[2], tf.shape(outputs)[-1])
        )


def cct_model(policy: str) -> keras.Model:
    """``create_cct_model`` and ``run_experiment``: 16x16 images, projection_dim 16, one
    Transformer layer, 10 classes; tfa's AdamW is keras.optimizers.AdamW; the random crop and
    flip are left out (they are identities in inference, and the crash is elsewhere)."""
    projection_dim, stochastic_depth_rate = 16, 0.1
    with _scope(policy):
        inputs = layers.Input((16, 16, 3))
        augmented = layers.Rescaling(scale=1.0 / 255)(inputs)
        encoded_patches = CCTTokenizer()(augmented)
        dpr = list(np.linspace(0, stochastic_depth_rate, 2))
        x1 = layers.LayerNormalization(epsilon=1e-5)(encoded_patches)
        attention_output = layers.MultiHeadAttention(num_heads=2, key_dim=projection_dim,
                                                     dropout=0.1)(x1, x1)  # fmt: skip
        attention_output = StochasticDepth(dpr[1])(attention_output)
        x2 = layers.Add()([attention_output, encoded_patches])
        x3 = layers.LayerNormalization(epsilon=1e-5)(x2)
        for units in (projection_dim, projection_dim):
            x3 = layers.Dense(units, activation=tf.nn.gelu)(x3)
            x3 = layers.Dropout(0.1)(x3)
        x3 = StochasticDepth(dpr[1])(x3)
        encoded_patches = layers.Add()([x3, x2])
        representation = layers.LayerNormalization(epsilon=1e-5)(encoded_patches)
        attention_weights = ops.softmax(layers.Dense(1)(representation), axis=1)
        weighted = ops.matmul(ops.transpose(attention_weights, (0, 2, 1)), representation)
        weighted = ops.squeeze(weighted, -2)
        logits = layers.Dense(10)(weighted)
        model = keras.Model(inputs=inputs, outputs=logits)
        model.compile(
            optimizer=keras.optimizers.AdamW(learning_rate=0.001, weight_decay=0.0001),
            loss=keras.losses.CategoricalCrossentropy(from_logits=True, label_smoothing=0.1),
        )
    return model


def cct_batch() -> tuple:
    images = np.random.default_rng(0).uniform(0, 255, (8, 16, 16, 3)).astype("float32")
    return images, np.eye(10, dtype="float32")[np.arange(8) % 10]


# --- keras-io: generative/vae.py ----------------------------------------------------------------


class Sampling(layers.Layer):
    """Uses (z_mean, z_log_var) to sample z. (tf.keras.backend.random_normal is gone in Keras 3:
    keras.random.normal is its replacement, float32 by default as it was.)"""

    def call(self, inputs):
        z_mean, z_log_var = inputs
        batch = tf.shape(z_mean)[0]
        dim = tf.shape(z_mean)[1]
        epsilon = keras.random.normal(shape=(batch, dim))
        return z_mean + tf.exp(0.5 * z_log_var) * epsilon


class SamplingInComputeDtype(Sampling):
    """The VAE model needs a Sampling that builds under a mixed policy (the one above cannot:
    it is its own gallery entry), so that its custom train_step can be checked."""

    def call(self, inputs):
        z_mean, z_log_var = inputs
        epsilon = keras.random.normal(shape=tf.shape(z_mean), dtype=self.compute_dtype)
        return z_mean + tf.exp(0.5 * z_log_var) * epsilon


class VAE(keras.Model):
    def __init__(self, encoder, decoder, **kwargs):
        super().__init__(**kwargs)
        self.encoder = encoder
        self.decoder = decoder
        self.total_loss_tracker = keras.metrics.Mean(name="total_loss")
        self.reconstruction_loss_tracker = keras.metrics.Mean(name="reconstruction_loss")
        self.kl_loss_tracker = keras.metrics.Mean(name="kl_loss")

    @property
    def metrics(self):
        return [self.total_loss_tracker, self.reconstruction_loss_tracker, self.kl_loss_tracker]

    def train_step(self, data):
        with tf.GradientTape() as tape:
            z_mean, z_log_var, z = self.encoder(data)
            reconstruction = self.decoder(z)
            reconstruction_loss = tf.reduce_mean(
                tf.reduce_sum(keras.losses.binary_crossentropy(data, reconstruction), axis=(1, 2))
            )
            kl_loss = -0.5 * (1 + z_log_var - tf.square(z_mean) - tf.exp(z_log_var))
            kl_loss = tf.reduce_mean(tf.reduce_sum(kl_loss, axis=1))
            total_loss = reconstruction_loss + kl_loss
        grads = tape.gradient(total_loss, self.trainable_weights)
        self.optimizer.apply_gradients(zip(grads, self.trainable_weights, strict=True))
        self.total_loss_tracker.update_state(total_loss)
        self.reconstruction_loss_tracker.update_state(reconstruction_loss)
        self.kl_loss_tracker.update_state(kl_loss)
        return {"loss": self.total_loss_tracker.result()}


def vae_model(policy: str) -> keras.Model:
    """The encoder and decoder for 8x8 digits (28x28 there), latent_dim 2."""
    with _scope(policy):
        encoder_inputs = keras.Input(shape=(8, 8, 1))
        x = layers.Conv2D(8, 3, activation="relu", strides=2, padding="same")(encoder_inputs)
        x = layers.Flatten()(x)
        x = layers.Dense(16, activation="relu")(x)
        z_mean = layers.Dense(2, name="z_mean")(x)
        z_log_var = layers.Dense(2, name="z_log_var")(x)
        z = SamplingInComputeDtype()([z_mean, z_log_var])
        encoder = keras.Model(encoder_inputs, [z_mean, z_log_var, z], name="encoder")
        latent_inputs = keras.Input(shape=(2,))
        x = layers.Dense(4 * 4 * 8, activation="relu")(latent_inputs)
        x = layers.Reshape((4, 4, 8))(x)
        decoder_outputs = layers.Conv2DTranspose(
            1, 3, activation="sigmoid", strides=2, padding="same"
        )(x)
        decoder = keras.Model(latent_inputs, decoder_outputs, name="decoder")
        vae = VAE(encoder, decoder, name="vae")
        vae.compile(optimizer=keras.optimizers.Adam())
    return vae


def vae_batch() -> np.ndarray:
    return np.random.default_rng(0).uniform(0, 1, (8, 8, 8, 1)).astype("float32")


# --- keras-io: nlp/text_classification_with_transformer.py --------------------------------------


class TransformerBlock(layers.Layer):
    def __init__(self, embed_dim, num_heads, ff_dim, rate=0.1, **kwargs):
        super().__init__(**kwargs)
        self.att = layers.MultiHeadAttention(num_heads=num_heads, key_dim=embed_dim)
        self.ffn = keras.Sequential(
            [layers.Dense(ff_dim, activation="relu"), layers.Dense(embed_dim)]
        )
        self.layernorm1 = layers.LayerNormalization(epsilon=1e-6)
        self.layernorm2 = layers.LayerNormalization(epsilon=1e-6)
        self.dropout1 = layers.Dropout(rate)
        self.dropout2 = layers.Dropout(rate)

    def call(self, inputs, training=False):  # (Keras 3 does not fill a required `training`)
        attn_output = self.att(inputs, inputs)
        attn_output = self.dropout1(attn_output, training=training)
        out1 = self.layernorm1(inputs + attn_output)
        ffn_output = self.ffn(out1)
        ffn_output = self.dropout2(ffn_output, training=training)
        return self.layernorm2(out1 + ffn_output)


class TokenAndPositionEmbeddingIO(layers.Layer):
    def __init__(self, maxlen, vocab_size, embed_dim, **kwargs):
        super().__init__(**kwargs)
        self.token_emb = layers.Embedding(input_dim=vocab_size, output_dim=embed_dim)
        self.pos_emb = layers.Embedding(input_dim=maxlen, output_dim=embed_dim)

    def call(self, x):
        maxlen = tf.shape(x)[-1]
        positions = tf.range(start=0, limit=maxlen, delta=1)
        positions = self.pos_emb(positions)
        x = self.token_emb(x)
        return x + positions


def text_model(policy: str) -> keras.Model:
    """The classifier as published: vocab_size 20000, a ``layers.Input(shape=(maxlen,))``
    without a dtype (float32), maxlen 200 -> 16, embed_dim 32 -> 16."""
    with _scope(policy):
        inputs = layers.Input(shape=(16,))
        x = TokenAndPositionEmbeddingIO(16, 20000, 16)(inputs)
        x = TransformerBlock(16, 2, 16)(x)
        x = layers.GlobalAveragePooling1D()(x)
        x = layers.Dropout(0.1)(x)
        x = layers.Dense(20, activation="relu")(x)
        x = layers.Dropout(0.1)(x)
        outputs = layers.Dense(2, activation="softmax")(x)
        model = keras.Model(inputs=inputs, outputs=outputs)
        model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    return model


def text_batch() -> tuple:
    ids = np.random.default_rng(0).integers(0, 20000, (8, 16)).astype("float32")
    return ids, np.arange(8) % 2


# --- keras-io: vision/mlp_image_classification.py -----------------------------------------------
# (tfa.layers.GELU() is the "gelu" activation in Keras 3)


class Patches(layers.Layer):
    def __init__(self, patch_size, num_patches, **kwargs):
        super().__init__(**kwargs)
        self.patch_size = patch_size
        self.num_patches = num_patches

    def call(self, images):
        batch_size = tf.shape(images)[0]
        patches = tf.image.extract_patches(
            images=images,
            sizes=[1, self.patch_size, self.patch_size, 1],
            strides=[1, self.patch_size, self.patch_size, 1],
            rates=[1, 1, 1, 1],
            padding="VALID",
        )
        patch_dims = patches.shape[-1]
        return tf.reshape(patches, [batch_size, self.num_patches, patch_dims])


class MLPMixerLayer(layers.Layer):
    def __init__(self, num_patches, hidden_units, dropout_rate, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.mlp1 = keras.Sequential(
            [layers.Dense(num_patches, activation="gelu"), layers.Dense(num_patches),
             layers.Dropout(rate=dropout_rate)]
        )  # fmt: skip
        self.mlp2 = keras.Sequential(
            [layers.Dense(num_patches, activation="gelu"), layers.Dense(hidden_units),
             layers.Dropout(rate=dropout_rate)]
        )  # fmt: skip
        self.normalize = layers.LayerNormalization(epsilon=1e-6)

    def call(self, inputs):
        x = self.normalize(inputs)
        x_channels = tf.linalg.matrix_transpose(x)
        mlp1_outputs = self.mlp1(x_channels)
        mlp1_outputs = tf.linalg.matrix_transpose(mlp1_outputs)
        x = mlp1_outputs + inputs
        x_patches = self.normalize(x)
        mlp2_outputs = self.mlp2(x_patches)
        return x + mlp2_outputs


class FNetLayer(layers.Layer):
    def __init__(self, num_patches, embedding_dim, dropout_rate, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.ffn = keras.Sequential(
            [layers.Dense(embedding_dim, activation="gelu"), layers.Dropout(rate=dropout_rate),
             layers.Dense(embedding_dim)]
        )  # fmt: skip
        self.normalize1 = layers.LayerNormalization(epsilon=1e-6)
        self.normalize2 = layers.LayerNormalization(epsilon=1e-6)

    def call(self, inputs):
        x = tf.cast(
            tf.signal.fft2d(tf.cast(inputs, dtype=tf.dtypes.complex64)), dtype=tf.dtypes.float32
        )
        x = x + inputs
        x = self.normalize1(x)
        x_ffn = self.ffn(x)
        x = x + x_ffn
        return self.normalize2(x)


class gMLPLayer(layers.Layer):  # noqa: N801 (the published name)
    def __init__(self, num_patches, embedding_dim, dropout_rate, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.channel_projection1 = keras.Sequential(
            [layers.Dense(embedding_dim * 2, activation="gelu"), layers.Dropout(dropout_rate)]
        )
        self.channel_projection2 = layers.Dense(units=embedding_dim)
        self.spatial_projection = layers.Dense(units=num_patches, bias_initializer="Ones")
        self.normalize1 = layers.LayerNormalization(epsilon=1e-6)
        self.normalize2 = layers.LayerNormalization(epsilon=1e-6)

    def spatial_gating_unit(self, x):
        u, v = tf.split(x, num_or_size_splits=2, axis=2)
        v = self.normalize2(v)
        v_channels = tf.linalg.matrix_transpose(v)
        v_projected = self.spatial_projection(v_channels)
        v_projected = tf.linalg.matrix_transpose(v_projected)
        return u * v_projected

    def call(self, inputs):
        x = self.normalize1(inputs)
        x_projected = self.channel_projection1(x)
        x_spatial = self.spatial_gating_unit(x_projected)
        x_projected = self.channel_projection2(x_spatial)
        return x + x_projected


def mixer_model(policy: str) -> keras.Model:
    """``build_classifier(mlpmixer_blocks)`` and ``run_experiment``: 16x16 images, patches of 4,
    embedding_dim 16, two blocks; the Normalization/Resizing/augmentation front is left out
    (it needs adapt() on the data); tfa's AdamW is keras.optimizers.AdamW."""
    with _scope(policy):
        inputs = layers.Input(shape=(16, 16, 3))
        patches = Patches(4, 16)(inputs)
        x = layers.Dense(units=16)(patches)
        x = keras.Sequential([MLPMixerLayer(16, 16, 0.2) for _ in range(2)])(x)
        representation = layers.GlobalAveragePooling1D()(x)
        representation = layers.Dropout(rate=0.2)(representation)
        logits = layers.Dense(10)(representation)
        model = keras.Model(inputs=inputs, outputs=logits)
        model.compile(
            optimizer=keras.optimizers.AdamW(learning_rate=0.005, weight_decay=0.0001),
            loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        )
    return model


def mixer_batch() -> tuple:
    return _normal(8, 16, 16, 3), np.arange(8) % 10


# --- keras-hub: layers/modeling -----------------------------------------------------------------


class SinePositionEncoding(layers.Layer):
    def __init__(self, max_wavelength=10000, **kwargs):
        super().__init__(**kwargs)
        self.max_wavelength = max_wavelength

    def call(self, inputs, start_index=0):
        shape = ops.shape(inputs)
        seq_length, hidden_size = shape[-2], shape[-1]
        positions = ops.arange(seq_length)
        positions = ops.cast(positions + start_index, self.compute_dtype)
        positions = ops.expand_dims(positions, axis=0)
        min_freq = ops.cast(1 / self.max_wavelength, dtype=self.compute_dtype)
        timescales = ops.power(
            min_freq,
            ops.cast(2 * (ops.arange(hidden_size) // 2), self.compute_dtype)
            / ops.cast(hidden_size, self.compute_dtype),
        )
        angles = ops.einsum("bi,j->bij", positions, timescales)
        cos_mask = ops.cast(ops.arange(hidden_size) % 2, self.compute_dtype)
        sin_mask = 1 - cos_mask
        positional_encodings = ops.einsum("bij,j->bij", ops.sin(angles), sin_mask) + ops.einsum(
            "bij,j->bij", ops.cos(angles), cos_mask
        )
        return ops.broadcast_to(positional_encodings, shape)


class PositionEmbedding(layers.Layer):
    # (the vLLM serving branch is left out)
    def __init__(self, sequence_length, initializer="glorot_uniform", **kwargs):
        super().__init__(**kwargs)
        self.sequence_length = int(sequence_length)
        self.initializer = keras.initializers.get(initializer)

    def build(self, inputs_shape):
        self.position_embeddings = self.add_weight(
            name="embeddings",
            shape=[self.sequence_length, inputs_shape[-1]],
            initializer=self.initializer,
            trainable=True,
        )

    def call(self, inputs, start_index=0):
        shape = ops.shape(inputs)
        position_embeddings = ops.convert_to_tensor(self.position_embeddings)
        position_embeddings = ops.slice(
            position_embeddings, (start_index, 0), (shape[-2], shape[-1])
        )
        return ops.broadcast_to(position_embeddings, shape)


class TokenAndPositionEmbedding(layers.Layer):
    # (ReversibleEmbedding is an Embedding with an optional reverse projection, unused here)
    def __init__(self, vocabulary_size, sequence_length, embedding_dim, **kwargs):
        super().__init__(**kwargs)
        self.token_embedding = layers.Embedding(
            vocabulary_size, embedding_dim, dtype=self.dtype_policy, name="token_embedding"
        )
        self.position_embedding = PositionEmbedding(
            sequence_length=sequence_length, dtype=self.dtype_policy, name="position_embedding"
        )

    def call(self, inputs, start_index=0):
        embedded_tokens = self.token_embedding(inputs)
        embedded_positions = self.position_embedding(embedded_tokens, start_index=start_index)
        return embedded_tokens + embedded_positions


class RotaryEmbedding(layers.Layer):
    # (the linear rope_type only; dynamic and YaRN scaling left out)
    def __init__(self, max_wavelength=10000, scaling_factor=1.0, **kwargs):
        super().__init__(**kwargs)
        self.max_wavelength = max_wavelength
        self.scaling_factor = scaling_factor
        self.built = True

    def call(self, inputs, start_index=0):
        cos_emb, sin_emb = self._compute_cos_sin_embedding(inputs, start_index)
        x1, x2 = ops.split(inputs, 2, axis=-1)
        half_rot_tensor = ops.reshape(ops.stack((-x2, x1), axis=-2), ops.shape(inputs))
        return (inputs * cos_emb) + (half_rot_tensor * sin_emb)

    def _compute_cos_sin_embedding(self, inputs, start_index=0):
        rotary_dim = ops.shape(inputs)[-1]
        idx = ops.arange(0, rotary_dim, 2, dtype="float32")
        freq_range = idx / ops.cast(rotary_dim, "float32")
        inverse_freq = ops.power(ops.cast(self.max_wavelength, "float32"), -freq_range)
        inverse_freq = inverse_freq / ops.cast(self.scaling_factor, "float32")
        positions = ops.arange(ops.shape(inputs)[1], dtype="float32")
        positions = ops.expand_dims(positions + ops.cast(start_index, "float32"), axis=0)
        freq = ops.einsum("bi,j->bij", positions, inverse_freq)
        embedding = ops.stack((freq, freq), axis=-2)
        embedding = ops.reshape(embedding, (*ops.shape(freq)[:-1], ops.shape(freq)[-1] * 2))
        cos_emb = ops.cast(ops.cos(embedding), self.compute_dtype)
        sin_emb = ops.cast(ops.sin(embedding), self.compute_dtype)
        return cos_emb, sin_emb


class RMSNormalization(layers.Layer):
    def __init__(self, input_dim):
        super().__init__()
        self.scale = self.add_weight(name="scale", shape=(input_dim,), initializer="ones")

    def call(self, x):
        x = ops.cast(x, float)
        rrms = ops.rsqrt(ops.mean(ops.square(x), axis=-1, keepdims=True) + 1e-6)
        return (x * rrms) * self.scale


class FNetEncoder(layers.Layer):
    def __init__(self, intermediate_dim, dropout=0, layer_norm_epsilon=1e-5, **kwargs):
        super().__init__(**kwargs)
        self.intermediate_dim, self.dropout = intermediate_dim, dropout
        self.layer_norm_epsilon = layer_norm_epsilon

    def build(self, inputs_shape):
        options = {"dtype": self.dtype_policy}
        epsilon = self.layer_norm_epsilon
        self._mixing_layer_norm = layers.LayerNormalization(epsilon=epsilon, **options)
        self._output_layer_norm = layers.LayerNormalization(epsilon=epsilon, **options)
        self._intermediate_dense = layers.Dense(self.intermediate_dim, "relu", **options)
        self._output_dense = layers.Dense(inputs_shape[-1], **options)
        self._output_dropout = layers.Dropout(rate=self.dropout, **options)

    def call(self, inputs, training=None):
        def fourier_transform(input):
            input_dtype = input.dtype
            input = ops.cast(input, "float32")
            real_in, imaginary_in = (input, ops.zeros_like(input))
            real_out, _ = ops.fft2((real_in, imaginary_in))
            return ops.cast(real_out, input_dtype)

        def add_and_norm(input1, input2, norm_layer):
            return norm_layer(input1 + input2)

        def feed_forward(input):
            x = self._intermediate_dense(input)
            x = self._output_dense(x)
            return self._output_dropout(x, training=training)

        mixing_output = fourier_transform(inputs)
        mixing_output = add_and_norm(inputs, mixing_output, self._mixing_layer_norm)
        feed_forward_output = feed_forward(mixing_output)
        return add_and_norm(mixing_output, feed_forward_output, self._output_layer_norm)


class AlibiBias(layers.Layer):
    def __init__(self, alibi_bias_max=8, **kwargs):
        super().__init__(**kwargs)
        self.alibi_bias_max = alibi_bias_max

    def call(self, attention_scores):
        shape = ops.shape(attention_scores)
        key_length, num_heads = shape[-1], shape[-3]
        return ops.add(attention_scores, self._get_alibi_bias(num_heads, key_length))

    def _get_alibi_bias(self, num_heads, key_length):
        slopes = ops.convert_to_tensor(self._get_slopes(num_heads), dtype=self.compute_dtype)
        slopes = ops.expand_dims(slopes, 1)
        seq_range = ops.expand_dims(ops.arange(1 - key_length, 1, dtype="int32"), 0)
        seq_range = ops.cast(seq_range, dtype=self.compute_dtype)
        alibi_bias = ops.multiply(slopes, seq_range)
        return ops.expand_dims(ops.expand_dims(alibi_bias, 1), 0)

    def _get_slopes(self, num_heads):
        start = 2 ** (-(2 ** -(math.log2(num_heads) - math.log2(self.alibi_bias_max))))
        return [start * start**i for i in range(num_heads)]  # (num_heads a power of 2 here)


class TransformerEncoder(layers.Layer):
    # (normalize_first=False, no masks: the published defaults)
    def __init__(self, intermediate_dim, num_heads, dropout=0, **kwargs):
        super().__init__(**kwargs)
        self.intermediate_dim, self.num_heads, self.dropout = intermediate_dim, num_heads, dropout

    def build(self, inputs_shape):
        hidden_dim = inputs_shape[-1]
        options = {"dtype": self.dtype_policy}
        self._self_attention_layer = layers.MultiHeadAttention(
            self.num_heads, hidden_dim // self.num_heads, dropout=self.dropout, **options
        )
        self._self_attention_layer_norm = layers.LayerNormalization(epsilon=1e-5, **options)
        self._self_attention_dropout = layers.Dropout(rate=self.dropout, **options)
        self._feedforward_layer_norm = layers.LayerNormalization(epsilon=1e-5, **options)
        self._feedforward_intermediate_dense = layers.Dense(
            self.intermediate_dim, "relu", **options
        )
        self._feedforward_output_dense = layers.Dense(hidden_dim, **options)
        self._feedforward_dropout = layers.Dropout(rate=self.dropout, **options)

    def call(self, inputs, training=None):
        x = inputs
        residual = x
        x = self._self_attention_layer(query=x, value=x, training=training)
        x = self._self_attention_dropout(x, training=training)
        x = x + residual
        x = self._self_attention_layer_norm(x)
        residual = x
        x = self._feedforward_intermediate_dense(x)
        x = self._feedforward_output_dense(x)
        x = self._feedforward_dropout(x, training=training)
        x = x + residual
        return self._feedforward_layer_norm(x)


# --- keras-hub: models --------------------------------------------------------------------------


class VectorQuantizerEMA(layers.Layer):
    def __init__(self, num_embeddings, embedding_dim, decay=0.99, eps=1e-5, **kwargs):
        super().__init__(**kwargs)
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        self.decay, self.eps = decay, eps

    def build(self, input_shape):
        shape = (self.num_embeddings, self.embedding_dim)
        self.embeddings = self.add_weight(
            shape=shape, initializer="random_normal", trainable=False, name="embeddings"
        )
        self.ema_cluster_size = self.add_weight(
            shape=(self.num_embeddings,), initializer="zeros", trainable=False,
            name="ema_cluster_size",
        )  # fmt: skip
        self.ema_w = self.add_weight(
            shape=shape, initializer="random_normal", trainable=False, name="ema_w"
        )

    def _codebook_usage(self, encodings):
        usage_counts = ops.sum(encodings, axis=0)
        num_used = ops.sum(ops.cast(usage_counts > 0, "float32"))
        return num_used / self.num_embeddings

    def call(self, inputs, training=False):
        input_shape = ops.shape(inputs)
        flattened_inputs = ops.reshape(inputs, (-1, self.embedding_dim))
        input_sq = ops.sum(flattened_inputs**2, axis=1, keepdims=True)
        codebook_sq = ops.sum(self.embeddings**2, axis=1)
        dot_product = ops.matmul(flattened_inputs, ops.transpose(self.embeddings))
        distances = input_sq + codebook_sq - 2 * dot_product
        encoding_indices = ops.argmin(distances, axis=-1)
        encodings = ops.one_hot(encoding_indices, self.num_embeddings)
        quantized_flat = ops.take(self.embeddings, encoding_indices, axis=0)
        if training:
            current_counts = ops.sum(encodings, axis=0)
            updated_ema_cluster_size = (
                self.ema_cluster_size * self.decay + (1.0 - self.decay) * current_counts
            )
            n = ops.sum(updated_ema_cluster_size)
            updated_ema_cluster_size = (
                (updated_ema_cluster_size + self.eps) / (n + self.num_embeddings * self.eps) * n
            )
            self.ema_cluster_size.assign(updated_ema_cluster_size)
            total_assignment_sums = ops.matmul(ops.transpose(encodings), flattened_inputs)
            updated_ema_w = self.ema_w * self.decay + (1.0 - self.decay) * total_assignment_sums
            self.ema_w.assign(updated_ema_w)
            updated_embeddings = self.ema_w / (
                ops.expand_dims(self.ema_cluster_size, axis=1) + self.eps
            )
            self.embeddings.assign(updated_embeddings)
            quantization_loss = ops.mean((flattened_inputs - quantized_flat) ** 2)
            quantization_loss = ops.reshape(quantization_loss, (1,))
            quantized = ops.reshape(quantized_flat, input_shape)
            quantized_flow = inputs + ops.stop_gradient(quantized - inputs)
            usage_ratio = self._codebook_usage(encodings)
            return quantized_flow, encodings, usage_ratio, quantization_loss
        quantized = ops.reshape(quantized_flat, input_shape)
        usage_ratio = self._codebook_usage(encodings)
        quantization_loss = ops.convert_to_tensor(0.0, dtype=inputs.dtype)
        quantization_loss = ops.reshape(quantization_loss, (1,))
        return quantized, encodings, usage_ratio, quantization_loss


class GemmaRMSNormalization(layers.Layer):
    def __init__(self, epsilon=1e-6, **kwargs):
        super().__init__(**kwargs)
        self.epsilon = epsilon

    def build(self, input_shape):
        self.scale = self.add_weight(
            name="scale", trainable=True, shape=(input_shape[-1],), initializer="zeros"
        )

    def call(self, x):
        x = ops.cast(x, "float32")
        scale = ops.cast(self.scale, "float32")
        var = ops.mean(ops.square(x), axis=-1, keepdims=True)
        normed_inputs = x * ops.reciprocal(ops.sqrt(var + self.epsilon))
        normed_inputs = normed_inputs * (1 + scale)
        return ops.cast(normed_inputs, self.compute_dtype)


class LlamaLayerNorm(layers.Layer):
    def __init__(self, epsilon=1e-6, **kwargs):
        super().__init__(**kwargs)
        self.epsilon = epsilon

    def build(self, input_shape):
        self.scale = self.add_weight(
            name="scale", trainable=True, shape=(input_shape[-1],), initializer="ones",
            dtype=self.variable_dtype,
        )  # fmt: skip

    def call(self, x):
        x = ops.cast(x, "float32")
        var = ops.mean(ops.power(x, 2), axis=-1, keepdims=True)
        x = x * ops.rsqrt(var + self.epsilon)
        return ops.cast(x * self.scale, self.compute_dtype)


# --- the catalogue ------------------------------------------------------------------------------


def _scope(policy: str) -> Any:
    """Build under ``policy`` as the global one (keras.mixed_precision.set_global_policy in the
    examples), then put the previous global policy back."""
    from mpteach.doctor.diagnose import keras_policy

    return keras_policy(policy)


@dataclass(frozen=True)
class PublicLayer:
    """A layer: where it comes from, how to make it and its inputs, and what running it under
    the mixed policies shows (``truth``: the problems, ``()`` for none) and what the doctor must
    report for it (``codes``, each of which must be among its findings)."""

    source: tuple[str, str, str]  # repository, path, commit
    make: Callable[[], keras.layers.Layer]
    inputs: Callable[[], Any]
    truth: tuple[str, ...] = ()
    codes: tuple[str, ...] = ()
    call_kwargs: dict = field(default_factory=dict)


@dataclass(frozen=True)
class PublicModel:
    """A model: built (and compiled as published) under a policy, with a batch to train on."""

    source: tuple[str, str, str]
    build: Callable[[str], keras.Model]
    batch: Callable[[], Any]
    truth: tuple[str, ...] = ()  # under mixed_float16
    codes: tuple[str, ...] = ()
    truth_bf16: tuple[str, ...] = ()  # under mixed_bfloat16


LAYERS: dict[str, PublicLayer] = {
    "cct.StochasticDepth": PublicLayer(
        CCT,
        lambda: StochasticDepth(0.1),
        lambda: _normal(4, 5, 8),
        ("training-crash",),
        ("uncast-tensor-creation",),
    ),  # fmt: skip
    "cct.CCTTokenizer": PublicLayer(CCT, CCTTokenizer, lambda: _normal(2, 16, 16, 3)),
    "vae.Sampling": PublicLayer(
        VAE_SOURCE,
        Sampling,
        lambda: [_normal(4, 2), _normal(4, 2, seed=1)],
        ("crash",),
        ("uncast-tensor-creation",),
    ),  # fmt: skip
    "text.TransformerBlock": PublicLayer(
        TEXT, lambda: TransformerBlock(16, 2, 16), lambda: _normal(2, 6, 16)
    ),
    "text.TokenAndPositionEmbedding": PublicLayer(
        TEXT,
        lambda: TokenAndPositionEmbeddingIO(16, 20000, 16),
        lambda: np.random.default_rng(0).integers(0, 20000, (2, 16)).astype("int32"),
    ),  # fmt: skip
    "mlp.Patches": PublicLayer(MLP, lambda: Patches(4, 16), lambda: _normal(2, 16, 16, 3)),
    "mlp.MLPMixerLayer": PublicLayer(
        MLP, lambda: MLPMixerLayer(16, 16, 0.2), lambda: _normal(2, 16, 16)
    ),
    "mlp.FNetLayer": PublicLayer(
        MLP,
        lambda: FNetLayer(16, 16, 0.2),
        lambda: _normal(2, 16, 16),
        ("crash",),
        ("dtype-mismatch",),
    ),  # fmt: skip
    "mlp.gMLPLayer": PublicLayer(MLP, lambda: gMLPLayer(16, 16, 0.2), lambda: _normal(2, 16, 16)),
    "hub.SinePositionEncoding": PublicLayer(
        _hub("layers/modeling/sine_position_encoding.py"),
        SinePositionEncoding,
        lambda: _normal(1, 4096, 16),
        ("diverges",),
        ("numeric-divergence",),
    ),  # fmt: skip
    "hub.PositionEmbedding": PublicLayer(
        _hub("layers/modeling/position_embedding.py"),
        lambda: PositionEmbedding(32),
        lambda: _normal(2, 16, 8),
    ),  # fmt: skip
    "hub.TokenAndPositionEmbedding": PublicLayer(
        _hub("layers/modeling/token_and_position_embedding.py"),
        lambda: TokenAndPositionEmbedding(5000, 16, 8),
        lambda: np.random.default_rng(0).integers(0, 5000, (2, 16)).astype("int32"),
    ),  # fmt: skip
    "hub.RotaryEmbedding": PublicLayer(
        _hub("layers/modeling/rotary_embedding.py"), RotaryEmbedding, lambda: _normal(2, 512, 8)
    ),
    "hub.RMSNormalization": PublicLayer(
        _hub("layers/modeling/rms_normalization.py"),
        lambda: RMSNormalization(8),
        lambda: _normal(4, 8),
        ("float32-leak",),
        ("float32-output",),
    ),  # fmt: skip
    "hub.FNetEncoder": PublicLayer(
        _hub("layers/modeling/f_net_encoder.py"), lambda: FNetEncoder(16), lambda: _normal(2, 8, 8)
    ),
    "hub.AlibiBias": PublicLayer(
        _hub("layers/modeling/alibi_bias.py"), AlibiBias, lambda: _normal(1, 4, 8, 512)
    ),
    "hub.TransformerEncoder": PublicLayer(
        _hub("layers/modeling/transformer_encoder.py"),
        lambda: TransformerEncoder(16, 2, 0.1),
        lambda: _normal(2, 6, 8),
    ),  # fmt: skip
    "hub.VectorQuantizerEMA": PublicLayer(
        _hub("models/rqvae/rqvae_layers.py"),
        lambda: VectorQuantizerEMA(16, 4),
        lambda: _normal(2, 8, 4),
        ("diverges", "float32-leak", "training-crash"),
        ("dtype-mismatch", "numeric-divergence", "float32-output"),
    ),  # fmt: skip
    "hub.GemmaRMSNormalization": PublicLayer(
        _hub("models/gemma/rms_normalization.py"),
        GemmaRMSNormalization,
        lambda: _normal(4, 8, scale=300.0),
    ),  # fmt: skip
    "hub.LlamaLayerNorm": PublicLayer(
        _hub("models/llama/llama_layernorm.py"), LlamaLayerNorm, lambda: _normal(4, 8, scale=300.0)
    ),
    "pixelcnn.PixelConvLayer (mask A)": PublicLayer(
        training.PIXELCNN_SOURCE,
        lambda: training.PixelConvLayer(
            mask_type="A", filters=8, kernel_size=7, activation="relu", padding="same"
        ),
        lambda: (np.random.default_rng(0).uniform(0, 1, (2, 8, 8, 1)) > 0.67).astype("float32"),
        ("update-lost",),
        ("rounded-variable-update",),
    ),  # fmt: skip
    "pixelcnn.PixelConvLayer (mask B)": PublicLayer(
        training.PIXELCNN_SOURCE,
        lambda: training.PixelConvLayer(
            mask_type="B", filters=4, kernel_size=3, activation="relu", padding="same"
        ),
        lambda: _normal(2, 8, 8, 8),
        ("update-lost",),
        ("rounded-variable-update",),
    ),  # fmt: skip
}

MODELS: dict[str, PublicModel] = {
    "cct.CCT": PublicModel(
        CCT,
        cct_model,
        cct_batch,
        ("training-crash",),
        ("uncast-tensor-creation",),
        ("training-crash",),
    ),  # fmt: skip
    "vae.VAE": PublicModel(
        VAE_SOURCE, vae_model, vae_batch, ("update-shrinks",), ("unscaled-train-step",)
    ),
    "text.TextClassifier": PublicModel(
        TEXT,
        text_model,
        text_batch,
        ("diverges", "update-frozen"),  # the gradients land on other embedding rows
        ("float-indices",),
        ("diverges", "update-frozen"),
    ),
    "mlp.MLPMixer": PublicModel(MLP, mixer_model, mixer_batch),
    # custom train_steps (tests/public_gallery_training.py)
    "asr.Transformer": PublicModel(
        training.ASR_SOURCE,
        training.transformer_asr_model,
        training.transformer_asr_batch,  # a dictionary: {"source": ..., "target": ...}
        ("update-shrinks",),
        ("unscaled-train-step",),
    ),  # fmt: skip
    "cyclegan.CycleGan": PublicModel(
        training.CYCLEGAN_SOURCE,
        training.cyclegan_model,
        training.cyclegan_batch,
        ("update-frozen",),
        ("unscaled-optimizers",),
    ),  # fmt: skip
    "wgan_gp.WGAN": PublicModel(
        training.WGAN_SOURCE,
        training.wgan_gp_model,
        training.wgan_gp_batch,
        ("training-crash",),
        ("float32-batch",),
        ("training-crash",),
    ),  # fmt: skip
    "dcgan.GAN": PublicModel(
        training.DCGAN_SOURCE,
        training.dcgan_model,
        training.dcgan_batch,
        ("training-crash",),
        ("float32-batch",),
        ("training-crash",),
    ),  # fmt: skip
    "ddim.DiffusionModel": PublicModel(
        training.DDIM_SOURCE,
        training.ddim_f32_embedding_normalizer_model,
        training.ddim_batch,
        ("training-crash",),
        ("float32-tensor",),
        ("training-crash",),
    ),  # fmt: skip
    "pixelcnn.PixelCNN": PublicModel(
        training.PIXELCNN_SOURCE,
        training.pixelcnn_model,
        training.pixelcnn_batch,
        ("update-lost",),
        ("rounded-variable-update",),
        ("update-lost",),
    ),  # fmt: skip
    "cait.LayerScale": PublicModel(
        training.CAIT_SOURCE, training.cait_layerscale_1e6_model, training.cait_layerscale_batch
    ),
}
